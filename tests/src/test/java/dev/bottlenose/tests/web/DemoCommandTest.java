package dev.bottlenose.tests.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code bottlenose demo --exit-when-done}: the service, the bundled workload and a search, which finds the planted method. */
class DemoCommandTest {

  @Test
  void theDemoFindsThePlantedBottleneck() throws Exception {
    Path data = Files.createTempDirectory("bottlenose-demo-searches-");
    WebCli.Run run = WebCli.run("demo-" + System.nanoTime(), 420, "demo", "--port", "0", "--exit-when-done", "--data", data.toString(),
        "--max-time", "150s", "--set", "cpu_bound.threshold=" + SearchCliTest.CPU_THRESHOLD, "--set", "budget.fraction=0.5",
        "--set", "search.max_active_experiments=1000");
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(run.out()).contains("the web UI is at http://127.0.0.1:").contains("findings, by impact:");
    String found = run.out().substring(run.out().indexOf("findings, by impact:"));
    assertThat(found).as(run.out()).contains("1. CPU-bound - ").contains("PrimeCounter");
  }
}
