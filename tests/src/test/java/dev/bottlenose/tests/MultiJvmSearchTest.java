package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.SearchOptions;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.Searches;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.HotMethodWorkload;
import dev.bottlenose.tests.workloads.SleepyWorkload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One search over two JVMs, each with its own daemon: {@link HotMethodWorkload} spins, {@link SleepyWorkload}
 * mostly sleeps. The whole program (both JVMs) is CPU-bound; split by {@code /Process}, only the spinning
 * JVM is, and the search goes on to its hot method within the 30 s, leaving nothing in either target.
 *
 * <p>Only CPU-bound is searched, at threshold {@value #CPU_THRESHOLD}: on a two-core machine loaded by other
 * builds the two spinning threads were measured at 0.28 to 0.31 of a core between them, at the default
 * threshold (0.30) a toss-up, and the other hypotheses' experiments on both targets load the machine further. The sleepy JVM uses a few
 * microseconds per 50 ms, far below either threshold.
 */
class MultiJvmSearchTest {
  private static final ResourcePath BURN = ResourcePath.parse("/Code/dev.bottlenose.tests.workloads/HotMethodWorkload/burn()J");
  private static final Duration FOUND_WITHIN = Duration.ofSeconds(30);
  private static final String CPU_THRESHOLD = "0.15";
  private static final String NOT_SEARCHED = "sync_wait,io_wait,memory_pressure,method_call_overhead,"
      + "object_creation_overhead,interpreted_time,jit_compile_time,class_load_time";

  @TempDir
  Path data;

  @Test
  void oneSearchOverTwoJvmsFindsTheBusyOneAndItsHotMethod() throws Exception {
    try (Bus bus = Bus.join();
        TargetJvm hot = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class);
        TargetJvm sleepy = TargetJvm.start(Jdk.JDK17, SleepyWorkload.class);
        DaemonProcess hotDaemon = DaemonProcess.attach(hot.pid(), bus.secret(), "--interval", "500ms");
        DaemonProcess sleepyDaemon = DaemonProcess.attach(sleepy.pid(), bus.secret(), "--interval", "500ms")) {
      bus.awaitRunning(hotDaemon);
      bus.awaitRunning(sleepyDaemon);
      ResourcePath busyProcess = Hierarchy.PROCESS.root().child(Long.toString(hot.pid()));
      ResourcePath idleProcess = Hierarchy.PROCESS.root().child(Long.toString(sleepy.pid()));
      Predicate<ShgNode> busy = Searches.trueAt("cpu_bound", busyProcess);
      Predicate<ShgNode> inBurn = Searches.trueAt("cpu_bound", BURN);
      Predicate<ShgNode> idleDecided = n -> n.hypothesis().equals("cpu_bound") && n.focus().equals(Focus.of(idleProcess))
          && n.state() == NodeState.FALSE;
      SearchOptions options = Searches.fast("two-jvms-" + hot.pid(), FOUND_WITHIN.plusSeconds(15))
          .with("cpu_bound.threshold", CPU_THRESHOLD).with("search.skip", NOT_SEARCHED);
      SearchRunner runner = Searches.runUntil(bus, List.of(hotDaemon, sleepyDaemon), options, data, busy, inBurn, idleDecided);

      SearchHistoryGraph graph = runner.search().graph();
      Searches.foundWithin(runner, busy, "cpu_bound true at " + busyProcess, FOUND_WITHIN);
      ShgNode method = Searches.foundWithin(runner, inBurn, "cpu_bound true at " + BURN, FOUND_WITHIN);
      assertThat(method.focus().get(Hierarchy.PROCESS)).as("the hot method's process").isIn(Hierarchy.PROCESS.root(), busyProcess);
      ShgNode idle = graph.find("cpu_bound", Focus.of(idleProcess));
      assertThat(idle == null || idle.state() == NodeState.FALSE).as("the sleepy JVM's node, absent or false:\n" + graph.toText())
          .isTrue();
      assertThat(graph.nodes()).as("nothing true in the sleepy JVM:\n" + graph.toText())
          .noneMatch(n -> n.state() == NodeState.TRUE && idleProcess.equals(n.focus().get(Hierarchy.PROCESS)));
      Searches.assertNothingLeft(bus, hotDaemon);
      Searches.assertNothingLeft(bus, sleepyDaemon);
    }
  }
}
