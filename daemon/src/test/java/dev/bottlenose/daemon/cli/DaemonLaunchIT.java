package dev.bottlenose.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.bus.ClusterSecret;
import dev.bottlenose.daemon.it.TargetJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code daemon -- java …} as its own process: launches the target, serves, and ends when the target ends. */
class DaemonLaunchIT {

  @Test
  void launchesServesAndStopsWhenTheTargetExits() throws Exception {
    Path javaHome = Path.of(System.getProperty("java.home"));
    List<String> command = new ArrayList<>(List.of(javaHome.resolve("bin/java").toString(), "-jar",
        System.getProperty("bottlenose.daemon.jar"), "daemon", "--interval", "300ms", "--linger", "1ms", "--"));
    command.addAll(TargetJvm.command(javaHome));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put(ClusterSecret.ENV, UUID.randomUUID().toString());
    Process daemon = pb.start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(daemon.getInputStream(), StandardCharsets.UTF_8));
      List<String> lines = new ArrayList<>();
      for (String line = out.readLine(); line != null && !line.contains("probes 0"); line = out.readLine()) {
        lines.add(line);
      }
      assertThat(lines).as(String.join("\n", lines)).anySatisfy(l -> assertThat(l).contains("ready"))
          .anySatisfy(l -> assertThat(l).contains("serving process", TargetJvm.MAIN, "(cluster secret from BOTTLENOSE_CLUSTER_SECRET)"));
      daemon.getOutputStream().close();
      String rest = new String(daemon.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(daemon.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(daemon.exitValue()).as(rest).isZero();
      assertThat(rest).containsPattern("target process \\d+ exited with code 0");
    } finally {
      daemon.destroyForcibly().waitFor();
    }
  }
}
