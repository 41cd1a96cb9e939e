package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.Searches;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.SyncWorkload;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole search over the bus on a planted synchronisation bottleneck ({@link SyncWorkload}: three tellers
 * taking turns on one account's monitor): {@code sync_wait} must be found true at the monitor's class on
 * {@code /SyncObjects} and at the method that blocks on {@code /Code}, within the 30 s of search
 * time, with nothing left in the target afterwards.
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
      SearchRunner runner = Searches.runUntil(bus, daemon, Searches.fast("sync-" + target.pid(), SEARCH_TIME), data,
          atLock, inMethod);

      SearchHistoryGraph graph = runner.search().graph();
      ShgNode lock = Searches.first(graph, atLock).orElseThrow(() -> new AssertionError("no true sync_wait at " + ACCOUNT
          + " in the graph:\n" + graph.toText()));
      ShgNode method = Searches.first(graph, inMethod).orElseThrow(() -> new AssertionError("no true sync_wait at " + POST
          + " in the graph:\n" + graph.toText()));
      long start = runner.search().startedAtMillis();
      System.out.println("sync_wait true at " + ACCOUNT + " after " + (lock.concludedAtMillis() - start) + " ms, at "
          + POST + " after " + (method.concludedAtMillis() - start) + " ms of search");
      assertThat(lock.concludedAtMillis() - start).as("ms of search to the lock").isLessThanOrEqualTo(SEARCH_TIME.toMillis());
      assertThat(method.concludedAtMillis() - start).as("ms of search to the method").isLessThanOrEqualTo(SEARCH_TIME.toMillis());
      assertThat(graph.nodes()).as("the uncontended drawer is not blamed:\n" + graph.toText())
          .noneMatch(n -> n.state() == dev.bottlenose.consultant.NodeState.TRUE
              && n.focus().get(ACCOUNT.hierarchy()).toString().contains("Drawer"));
      assertThat(Files.exists(data.resolve(runner.search().id() + ".json"))).isTrue();
      JsonObject ledger = Searches.ledger(bus, daemon);
      assertThat(ledger.getJsonArray("entries")).as("probes left in the target").isEmpty();
      assertThat(ledger.getJsonArray("sources")).as("sources left in the target").isEmpty();
      assertThat(Searches.activeMetrics(bus, daemon)).as("metrics left enabled").isEmpty();
    }
  }
}
