package dev.bottlenose.tests.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.daemon.attach.LocalJvms;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.HotMethodWorkload;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A program in a container, searched from the machine: the target JVM runs in a pid namespace and a mount namespace
 * of its own with a {@code /tmp} of its own (what this machine allows a test to make: {@code unshare} as root; no
 * network namespace, so the agent still reaches the daemon on the loopback), and {@code bottlenose search --pid N}
 * is given its pid on the machine, as {@code jvms} lists it. The attach, the JVM's counters and JFR's recording are found through the
 * process's own root ({@code /proc/N/root}); the search finds the hot method, keeps the recording the agent dumped
 * in the container's {@code /tmp}, and leaves nothing behind.
 */
class ContainerTest {
  @BeforeAll
  static void namespacesCanBeMade() throws Exception {
    Process p = new ProcessBuilder("unshare", "--pid", "--fork", "--mount", "--mount-proc", "true")
        .redirectErrorStream(true).start();
    boolean done = p.waitFor(10, TimeUnit.SECONDS);
    assumeTrue(done && p.exitValue() == 0, "this machine lets no test make namespaces (unshare needs root)");
  }

  @Test
  void aSearchFromTheMachineFindsTheHotMethodOfAProgramInAContainerAndLeavesNothingBehind() throws Exception {
    Path data = Files.createTempDirectory("bottlenose-container-searches-");
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.startContained(Jdk.JDK17, HotMethodWorkload.class)) {
      String status = Files.readString(Path.of("/proc", Long.toString(target.pid()), "status"), StandardCharsets.US_ASCII);
      assertThat(status.lines().filter(l -> l.startsWith("NSpid:")).findFirst().orElseThrow().trim().split("\\s+"))
          .as("the target has a pid of its own in a namespace of its own").hasSize(3);
      assertThat(Files.readSymbolicLink(Path.of("/proc", Long.toString(target.pid()), "ns", "mnt")))
          .isNotEqualTo(Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")));

      assertThat(LocalJvms.list()).as("listed as the JVMs on this machine are, by its pid here, marked")
          .anySatisfy(j -> {
            assertThat(j.pid()).isEqualTo(target.pid());
            assertThat(j.contained()).isTrue();
            assertThat(j.mainClass()).isEqualTo(HotMethodWorkload.class.getName());
            assertThat(j.javaVersion()).startsWith("17");
          });

      WebCli.Run run = WebCli.run(bus.secret(), 400, "search", "--pid", Long.toString(target.pid()), "--budget", "50%",
          "--max-time", "150s", "--data", data.toString(), "--set", "search.sampling_interval_seconds=0.5",
          "--set", "search.min_observation_seconds=2", "--set", "search.sufficient_seconds=3",
          "--set", "cpu_bound.threshold=" + SearchCliTest.CPU_THRESHOLD, "--set", "search.max_active_experiments=1000");
      assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
      assertThat(run.out().lines()).as(run.out() + run.err())
          .anyMatch(l -> l.trim().startsWith("true") && l.contains("cpu_bound") && l.contains(SearchCliTest.BURN));
      try (var files = Files.list(data)) {
        assertThat(files.map(p -> p.getFileName().toString())).as("the recording the agent dumped in the container's /tmp, kept")
            .anyMatch(n -> n.endsWith(".jfr"));
      }

      try (DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret())) {
        bus.awaitRunning(daemon);
        JsonObject ledger = bus.request(Addresses.ledger(daemon.id()), new JsonObject());
        assertThat(ledger.getJsonArray("entries")).as("probes left in the target").isEmpty();
        assertThat(ledger.getJsonArray("sources")).as("sources left in the target").isEmpty();
      }
      assertThat(target.isAlive()).as(target.stderr()).isTrue();
    }
  }
}
