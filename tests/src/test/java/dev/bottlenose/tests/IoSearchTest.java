package dev.bottlenose.tests;

import dev.bottlenose.bus.Addresses;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.consultant.bus.DaemonProtocol;
import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.Searches;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.IoWorkload;
import dev.bottlenose.tests.workloads.JournalWorkload;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole search over the bus on a planted I/O bottleneck ({@link IoWorkload}: a thread reading from a
 * slow socket): {@code io_wait} must be found true at that socket on {@code /IO} and at the method that
 * reads on {@code /Code}, within 30 s of search and with nothing left in the target afterwards. The daemon's
 * graph of slow reads' stacks shows where the reading thread waits, which is what keeps the search to the
 * code that does I/O. A journal that syncs a file after every record ({@link JournalWorkload}), which JDK 17
 * records no I/O event for, is found from JFR's native-method samples.
 */
class IoSearchTest {
  private static final ResourcePath FETCH =
      ResourcePath.parse("/Code/dev.bottlenose.tests.workloads/IoWorkload/fetch(Ljava/io/InputStream;[B)I");
  private static final Duration SEARCH_TIME = Duration.ofSeconds(30);

  @TempDir
  Path data;

  @Test
  void aThreadReadingASlowSocketIsIoWaitingOnThatSocketInTheMethodThatReads() throws Exception {
    try (Bus bus = Bus.join();
        TargetJvm target = TargetJvm.start(Jdk.JDK17, IoWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "500ms")) {
      ResourcePath socket = ResourcePath.parse("/IO/socket").child("127.0.0.1:" + port(target));
      bus.awaitRunning(daemon);
      Predicate<ShgNode> onSocket = Searches.trueAt("io_wait", socket);
      Predicate<ShgNode> inMethod = Searches.trueAt("io_wait", FETCH);
      SearchRunner runner = Searches.runUntil(bus, daemon, Searches.fast("io-" + target.pid(), SEARCH_TIME), data,
          onSocket, inMethod);

      Searches.foundWithin(runner, onSocket, "io_wait true at " + socket, SEARCH_TIME);
      Searches.foundWithin(runner, inMethod, "io_wait true at " + FETCH, SEARCH_TIME);
      Searches.assertNothingLeft(bus, daemon);
      JsonObject waits = bus.request(Addresses.callGraph(daemon.id()), new JsonObject()
          .put("path", FETCH.parent().toString()).put("graph", "io"));
      assertThat(waits.getJsonArray("children").stream().map(o -> ((JsonObject) o).getString("path")))
          .as("slow reads' stacks in the io graph: %s", waits).contains(FETCH.toString());
      assertThat(waits.getLong("total")).isPositive();
    }
  }

  @Test
  void aThreadSyncingAFileAfterEveryRecordIsIoWaitingInTheMethodThatSyncs() throws Exception {
    ResourcePath append = ResourcePath.parse(
        "/Code/dev.bottlenose.tests.workloads/JournalWorkload/append(Ljava/io/FileOutputStream;[B)V");
    try (Bus bus = Bus.join();
        TargetJvm target = TargetJvm.start(Jdk.JDK17, JournalWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "500ms")) {
      bus.awaitRunning(daemon);
      Predicate<ShgNode> inMethod = Searches.trueAt("io_wait", append);
      SearchRunner runner = Searches.runUntil(bus, daemon, Searches.fast("sync-" + target.pid(), SEARCH_TIME), data,
          inMethod);

      Searches.foundWithin(runner, inMethod, "io_wait true at " + append, SEARCH_TIME);
      assertThat(runner.search().graph().nodes()).as("the main thread blocked on standard input is not I/O work")
          .noneMatch(n -> n.hypothesis().equals("io_wait") && n.state() == dev.bottlenose.consultant.NodeState.TRUE
              && n.focus().get(dev.bottlenose.model.Hierarchy.THREADS).equals(ResourcePath.parse("/Threads/main/main")));
      Searches.assertNothingLeft(bus, daemon);
    }
  }

  private static long port(TargetJvm target) {
    return TargetJvm.field(target.awaitLine("serving", Duration.ofSeconds(10)), "port");
  }
}
