package dev.bottlenose.tests.web;

import dev.bottlenose.bus.Addresses;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.bus.DaemonProtocol;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.HotMethodWorkload;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code bottlenose search --pid N} against a real CPU-hot program: the CLI starts its own daemon, searches,
 * prints the graph with the CPU-bound method true and the bottleneck, and stops its daemon, whose agent
 * then removes everything (checked with a fresh daemon's ledger afterwards); the target, started without the agent,
 * printed nothing of the attach.
 */
class SearchCliTest {
  static final String BURN = "/Code/dev.bottlenose.tests.workloads/HotMethodWorkload/burn()J";
  /**
   * This test checks the command, not the sampler: on a machine other programs keep overloaded, JFR's
   * sampler thread is starved and the sampled CPU of the two spinning threads reads as low as 0.1, so the
   * CPU-bound threshold is lowered (the consultant's own e2e test keeps the default). {@code java.lang} then
   * tests true as well (a thread's {@code Thread.run} is on the stack of its work), so the budget is raised
   * to let its classes and the workload's methods be tested in the same wave.
   */
  static final String CPU_THRESHOLD = "0.1";

  @Test
  void theSearchCommandPrintsTheTreeWithTheHotMethodTrueAndLeavesNothingBehind() throws Exception {
    Path data = Files.createTempDirectory("bottlenose-cli-searches-");
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class)) {
      WebCli.Run run = WebCli.run(bus.secret(), 400, "search", "--pid", Long.toString(target.pid()), "--budget", "50%",
          "--max-time", "150s", "--data", data.toString(), "--set", "search.sampling_interval_seconds=0.5",
          "--set", "search.min_observation_seconds=2", "--set", "search.sufficient_seconds=3",
          "--set", "cpu_bound.threshold=" + CPU_THRESHOLD,
          "--set", "search.max_active_experiments=1000");
      assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
      assertThat(run.out()).contains("search-history graph").contains("findings, by impact:");
      assertThat(run.out().lines()).as(run.out()).anyMatch(l -> l.trim().startsWith("true") && l.contains("cpu_bound") && l.contains(BURN)
          && l.contains(" s per second (threshold " + CPU_THRESHOLD + ")"));
      assertThat(run.err().lines()).as("the progress lines give the value in its unit: " + run.err())
          .anyMatch(l -> l.contains(" true ") && l.contains("cpu_bound") && l.endsWith(" s per second (threshold " + CPU_THRESHOLD + ")"));
      String findings = run.out().substring(run.out().indexOf("findings, by impact:"));
      assertThat(findings).as(findings).contains("CPU-bound - ").contains("dev.bottlenose.tests.workloads.HotMethodWorkload.burn()")
          .contains("cpu_inclusive ").contains(" s per second > 0.105 (threshold 0.1 + 5% hysteresis)").contains("next: ");
      assertThat(run.err()).contains("saved");
      assertThat(run.err().lines()).as("no daemon served the target: this command served it itself")
          .anyMatch(l -> l.startsWith("bottlenose: daemon ") && l.contains(" serves pid " + target.pid() + " ")
              && l.endsWith(") in this process"));
      assertThat(run.err().lines()).as("attached at run time: the recompilation it causes, and the flag that avoids it")
          .anyMatch(l -> l.startsWith("bottlenose: process " + target.pid() + " had ") && l.contains(" methods compiled;")
              && l.contains("start it with -javaagent:/") && l.contains("bottlenose-agent.jar"));
      try (Stream<Path> files = Files.list(data)) {
        assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.endsWith(".json"));
      }
      try (DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret())) {
        bus.awaitRunning(daemon);
        JsonObject ledger = bus.request(Addresses.ledger(daemon.id()), new JsonObject());
        assertThat(ledger.getJsonArray("entries")).as("probes left in the target").isEmpty();
        assertThat(ledger.getJsonArray("sources")).as("sources left in the target").isEmpty();
      }
      // attaching at run time (the agent loaded, JFR started, classes instrumented) writes nothing into the
      // target's own output: the workload's ready line alone
      assertThat(target.stdout()).isEqualTo("ready pid=" + target.pid() + "\n");
      assertThat(target.stderr()).isEmpty();
    }
  }

  /**
   * {@code --rules DIR}: the directory's metric file is added to the daemon, its properties declare a hypothesis
   * over that metric, and the search tests it down to the hot method like a built-in one.
   */
  @Test
  void aRulesDirectoryAddsAHypothesisOverAMetricOfItsOwn() throws Exception {
    Path data = Files.createTempDirectory("bottlenose-cli-searches-");
    Path rules = Files.createTempDirectory("bottlenose-cli-rules-");
    Files.writeString(rules.resolve("burning.metrics"), String.join("\n",
        "metric burning {",
        "  description \"CPU time with the focus on the stack, again\"",
        "  unit fraction",
        "  accumulates cpu_time",
        "  refine /Code inclusive, /Threads, /Process",
        "  combine sum",
        "  report fraction",
        "}", ""));
    Files.writeString(rules.resolve("burning.properties"), String.join("\n",
        "hypothesis.burning.metric = burning",
        "hypothesis.burning.parent = top",
        "hypothesis.burning.name = Burning",
        "hypothesis.burning.refine = Code",
        "burning.threshold = " + CPU_THRESHOLD,
        "search.skip = cpu_bound,sync_wait,io_wait,memory_pressure", ""));
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class)) {
      WebCli.Run run = WebCli.run(bus.secret(), 400, "search", "--pid", Long.toString(target.pid()), "--budget", "50%",
          "--max-time", "150s", "--data", data.toString(), "--rules", rules.toString(),
          "--set", "search.sampling_interval_seconds=0.5", "--set", "search.min_observation_seconds=2",
          "--set", "search.sufficient_seconds=3", "--set", "search.max_active_experiments=1000");
      assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
      assertThat(run.err()).contains("burning.metrics adds burning to daemon");
      assertThat(run.out().lines()).as(run.out())
          .anyMatch(l -> l.trim().startsWith("true") && l.contains("burning") && l.contains(BURN));
    }
  }

  @Test
  void badUsageExitsWithTwoAndAMessage() throws Exception {
    WebCli.Run run = WebCli.run("unused-" + System.nanoTime(), 60, "search", "--budget", "90%", "--pid", "1");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--budget 90% is outside (0, 50%]");
  }
}
