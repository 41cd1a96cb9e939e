package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.daemon.attach.CompiledBeforeAttach;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.Jcmd;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.Metrics;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.WarmJdkWorkload;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;
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
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, WarmJdkWorkload.class)) {
      String codeList = Jcmd.run(target.pid(), "Compiler.codelist");
      try (DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "200ms")) {
        bus.awaitRunning(daemon);
        Metrics metrics = new Metrics(bus, daemon.id());
        long jit = metrics.enable("jit_compile_time", "<>").getLong("metricId");
        metrics.awaitValues(jit);
        metrics.awaitSamples(30);

        List<Map<Long, Double>> rows = metrics.aligned(jit);
        double seconds = rows.stream().mapToDouble(r -> r.get(-1L)).sum();
        double programJit = metrics.integral(jit);
        double toolJit = metrics.samples(600).stream().map(s -> s.getJsonObject("cost", new JsonObject()))
            .mapToLong(c -> c.getLong("toolJitNanos", 0L)).sum() / 1e9;
        assertThat(toolJit).as("the JIT's work on the tool's behalf since the attach, s").isGreaterThan(0.2);
        assertThat(programJit / seconds).as(() -> String.format(
            "the program's JIT time over %.1f s of samples (%.3f s; the tool's %.3f s), per sample: %s;%n"
                + "the JIT since the attach:%n%s", seconds, programJit, toolJit,
            rows.stream().map(r -> String.format("%.3f", r.get(jit))).collect(Collectors.joining(" ")),
            compilationsSinceAttach(target.pid(), codeList))).isLessThan(JIT_THRESHOLD);
      }
    }
  }

  /**
   * What the target's JIT compiled since the attach, from the agent's recording: the methods it spent most on, each
   * with its level, how often and how long, and how many pieces of compiled code the code list had of it before;
   * for a failure's message.
   */
  private static String compilationsSinceAttach(long pid, String codeList) {
    try {
      CompiledBeforeAttach before = CompiledBeforeAttach.parse(codeList);
      Path dump = Files.createTempFile("bottlenose-wake", ".jfr");
      try {
        Jcmd.run(pid, "JFR.dump", "name=bottlenose", "filename=" + dump);
        Map<String, double[]> byMethod = new HashMap<>();
        Instant first = null;
        for (RecordedEvent e : RecordingFile.readAllEvents(dump)) {
          if (!e.getEventType().getName().equals("jdk.Compilation")) {
            continue;
          }
          first = first == null || e.getStartTime().isBefore(first) ? e.getStartTime() : first;
          RecordedMethod m = e.getValue("method");
          String method = CompiledBeforeAttach.method(m.getType().getName(), m.getName(), m.getDescriptor());
          String key = method + " L" + e.getValue("compileLevel") + (e.getBoolean("isOsr") ? " osr" : "")
              + " (before: " + before.pieces(method) + ")";
          double[] v = byMethod.computeIfAbsent(key, k -> new double[3]);
          v[0]++;
          v[1] += e.getDuration().toNanos() / 1e9;
          v[2] = Math.max(v[2], e.getStartTime().toEpochMilli());
        }
        double total = byMethod.values().stream().mapToDouble(v -> v[1]).sum();
        long from = first == null ? 0 : first.toEpochMilli();
        return String.format("%.3f s in %d compilations (code list: %d methods); most:%n", total,
            byMethod.values().stream().mapToLong(v -> (long) v[0]).sum(), before.methods())
            + byMethod.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue()[1], a.getValue()[1])).limit(15)
                .map(en -> String.format("  %.3f s  %d×  last +%.1f s  %s", en.getValue()[1], (long) en.getValue()[0],
                    (en.getValue()[2] - from) / 1e3, en.getKey()))
                .collect(Collectors.joining("\n"));
      } finally {
        Files.deleteIfExists(dump);
      }
    } catch (Exception ex) {
      return "(could not read the target's recording: " + ex + ")";
    }
  }
}
