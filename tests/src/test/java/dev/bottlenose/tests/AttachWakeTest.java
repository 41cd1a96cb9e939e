package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.tests.harness.AttachedTarget;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.WarmJdkWorkload;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The tool's own wake is not the program's: attaching to a JDK 17 program that has warmed up makes HotSpot throw all
 * its compiled code away at JFR's start, and its JIT compiles it all again for seconds. That work is the tool's (the
 * samples' {@code cost.toolJitNanos}); the program's JIT time, which has nothing new to compile, stays below what
 * the JIT hypothesis calls a bottleneck (0.05 s per second).
 */
class AttachWakeTest {
  private static final double JIT_THRESHOLD = 0.05;

  @Test
  void compilingAgainWhatTheAttachThrewAwayIsTheToolsJitNotTheProgramsJitTime() throws Exception {
    try (AttachedTarget attached = AttachedTarget.start(Jdk.JDK17, WarmJdkWorkload.class)) {
      long jit = attached.metrics.enable("jit_compile_time", "<>").getLong("metricId");
      attached.metrics.awaitValues(jit);
      attached.metrics.awaitSamples(30);

      List<Map<Long, Double>> rows = attached.metrics.aligned(jit);
      double seconds = rows.stream().mapToDouble(r -> r.get(-1L)).sum();
      double programJit = attached.metrics.integral(jit);
      double toolJit = attached.metrics.samples(600).stream().map(s -> s.getJsonObject("cost", new JsonObject()))
          .mapToLong(c -> c.getLong("toolJitNanos", 0L)).sum() / 1e9;
      assertThat(toolJit).as("the JIT's work on the tool's behalf since the attach, s").isGreaterThan(0.2);
      assertThat(programJit / seconds).as("the program's JIT time over %.1f s of samples (%.3f s; the tool's %.3f s)",
          seconds, programJit, toolJit).isLessThan(JIT_THRESHOLD);
    }
  }
}
