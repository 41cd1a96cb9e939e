package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.consultant.Findings;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.ShgEvent;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.Searches;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.SyncWorkload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole search over the bus on a planted synchronisation bottleneck ({@link SyncWorkload}: three tellers
 * taking turns on one account's monitor): {@code sync_wait} must be found true at the monitor's class on
 * {@code /SyncObjects} and at the method that blocks on {@code /Code}, within 30 s of search time; while it runs,
 * its lock finding says which teller holds the monitor; and nothing is left in the target afterwards.
 */
class SyncSearchTest {
  private static final ResourcePath POST = ResourcePath.parse("/Code/dev.bottlenose.tests.workloads/SyncWorkload/post(J)V");
  private static final ResourcePath ACCOUNT = ResourcePath.parse("/SyncObjects/monitors")
      .child("dev.bottlenose.tests.workloads.SyncWorkload$Account");
  private static final Duration SEARCH_TIME = Duration.ofSeconds(30);

  @TempDir
  Path data;

  @Test
  void aContendedMonitorIsSyncWaitingOnItsLockInTheMethodThatBlocks() throws Exception {
    try (Bus bus = Bus.join();
        TargetJvm target = TargetJvm.start(Jdk.JDK17, SyncWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "500ms")) {
      bus.awaitRunning(daemon);
      Predicate<ShgNode> atLock = Searches.trueAt("sync_wait", ACCOUNT);
      Predicate<ShgNode> inMethod = Searches.trueAt("sync_wait", POST);
      SearchRunner runner = SearchRunner.start(bus.vertx(), java.util.List.of(daemon.id()),
          Searches.fast("sync-" + target.pid(), SEARCH_TIME), data, "an end-to-end test");
      java.util.List<ShgEvent> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
      runner.search().addListener(heard::add);
      try {
        Searches.awaitFound(runner, Duration.ofSeconds(120), atLock, inMethod);
        // while it runs: a lock finding says who holds the lock (looked at once the lock's node became true)
        await("the holders of the contended monitor while the search runs").atMost(Duration.ofSeconds(20))
            .until(() -> runner.search().findings().stream().anyMatch(f -> f.hypothesis().equals("sync_wait")
                && !f.holders().isEmpty()));
        assertThat(runner.search().isFinished()).isFalse();
        Findings.Holder holder = runner.search().findings().stream().filter(f -> f.hypothesis().equals("sync_wait"))
            .flatMap(f -> f.holders().stream()).findFirst().orElseThrow();
        assertThat(holder.lock()).startsWith("monitor ").endsWith("SyncWorkload$Account");
        assertThat(holder.owner()).startsWith("teller-");
        assertThat(heard).as("the page hears of it").anyMatch(e -> e instanceof ShgEvent.LockHolders h && h.held() > 0);
      } finally {
        runner.stop("found it");
        runner.saved().toCompletionStage().toCompletableFuture().get(60, java.util.concurrent.TimeUnit.SECONDS);
      }

      Searches.foundWithin(runner, atLock, "sync_wait true at " + ACCOUNT, SEARCH_TIME);
      Searches.foundWithin(runner, inMethod, "sync_wait true at " + POST, SEARCH_TIME);
      SearchHistoryGraph graph = runner.search().graph();
      assertThat(graph.nodes()).as("the uncontended drawer is not blamed:\n" + graph.toText())
          .noneMatch(n -> n.state() == dev.bottlenose.consultant.NodeState.TRUE
              && n.focus().get(ACCOUNT.hierarchy()).toString().contains("Drawer"));
      assertThat(Files.exists(data.resolve(runner.search().id() + ".json"))).isTrue();
      Searches.assertNothingLeft(bus, daemon);
    }
  }
}
