package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bottlenose metric check} as a real process: compiler-style errors and exit codes. */
class MetricCliTest {
  @TempDir
  Path dir;

  @Test
  void checkPrintsFileLineColumnMessageAndExits1OnErrors() throws Exception {
    Path bad = dir.resolve("bad.metrics");
    Files.writeString(bad, "metric gc_time {\n  description \"x\"\n  unit fraction\n  accumulates duration of gc_pause\n"
        + "  refine /Process\n  combine sum\n  report fraction\n}\n", StandardCharsets.UTF_8);
    Result r = cli("metric", "check", bad.toString());
    assertThat(r.code).isEqualTo(1);
    assertThat(r.err.lines().findFirst().orElse(""))
        .isEqualTo(bad + ":1:8: metric 'gc_time' is already defined in the library; choose another name");
    assertThat(r.out).isEmpty();
  }

  @Test
  void checkExits0WithASummaryForAGoodFile() throws Exception {
    Path good = dir.resolve("good.metrics");
    Files.writeString(good, "metric my_gc {\n  description \"x\"\n  unit fraction\n  accumulates duration of gc_pause\n"
        + "  refine /Process\n  combine sum\n  report fraction\n}\n", StandardCharsets.UTF_8);
    Result r = cli("metric", "check", good.toString());
    assertThat(r.code).isZero();
    assertThat(r.out.strip()).isEqualTo(good + ": ok, 1 metric (my_gc)");
  }

  private record Result(int code, String out, String err) {}

  private Result cli(String... args) throws IOException, InterruptedException {
    List<String> cmd = new java.util.ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java")
        .toString(), "-jar", System.getProperty("bottlenose.daemon.jar", "../daemon/target/bottlenose-daemon-all.jar")));
    cmd.addAll(List.of(args));
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
