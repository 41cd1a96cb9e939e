package dev.bottlenose.daemon.session;

import dev.bottlenose.agent.wire.Fields;
import dev.bottlenose.agent.wire.Reading;
import dev.bottlenose.instrumentation.ProbeCost;
import dev.bottlenose.metrics.ProbePlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Turns the cumulative {@link Totals} of each read into per-interval samples. Not thread-safe. */
final class ValueTracker {
  private Totals previous;
  private final Map<Long, Reading> previousReadings = new HashMap<>();
  private final Map<Long, Map<String, Object>> previousSources = new HashMap<>();

  Sample next(Totals read, long atMillis, Map<Long, ProbeInfo> probes) {
    return next(read, atMillis, probes, Map.of());
  }

  /** The sample for the interval since the previous read; null for the first read, which is the baseline. */
  Sample next(Totals read, long atMillis, Map<Long, ProbeInfo> probes, Map<Long, SourceInfo> sources) {
    Totals before = previous;
    previous = read;
    Map<Long, Reading> readingsBefore = new HashMap<>(previousReadings);
    previousReadings.clear();
    read.agent().readings().forEach(r -> previousReadings.put(r.probeId(), r));
    Map<Long, Map<String, Object>> sourcesBefore = new HashMap<>(previousSources);
    previousSources.clear();
    read.sources().forEach(r -> previousSources.put(Fields.numberOr(r, "sourceId", -1), r));
    if (before == null) {
      return null;
    }
    long interval = Math.max(0, read.agent().nanoTime() - before.agent().nanoTime());
    List<ProbeValue> values = new ArrayList<>();
    for (Reading r : read.agent().readings()) {
      values.add(value(r, readingsBefore.get(r.probeId()), interval, probes));
    }
    List<SourceValue> sourceValues = new ArrayList<>();
    for (Map<String, Object> r : read.sources()) {
      sourceValues.add(source(r, sourcesBefore.get(Fields.numberOr(r, "sourceId", -1)), interval, sources));
    }
    return new Sample(atMillis, interval, values, cost(read, before), vmDeltas(read.agent().vm(), before.agent().vm()),
        sourceValues);
  }

  private static SourceValue source(Map<String, Object> now, Map<String, Object> then, long interval,
      Map<Long, SourceInfo> sources) {
    Map<String, Object> base = then == null ? Map.of() : then;
    long id = Fields.numberOr(now, "sourceId", -1);
    SourceInfo info = sources.get(id);
    return new SourceValue(id, info == null ? Map.of() : info.source(), Fields.numberOr(now, "count", 0),
        Fields.numberOr(now, "nanos", 0), Fields.numberOr(now, "bytes", 0), delta(now, base, "count"),
        delta(now, base, "nanos"), delta(now, base, "bytes"), interval, Fields.numberOr(now, "throughMillis", -1));
  }

  private static ProbeValue value(Reading now, Reading then, long interval, Map<Long, ProbeInfo> probes) {
    ProbeInfo info = probes.get(now.probeId());
    return new ProbeValue(now.probeId(), info == null ? "" : info.method(), now.kind().word(), now.count(), now.nanos(),
        now.bytes(), delta(now.count(), then == null ? 0 : then.count()),
        delta(now.nanos(), then == null ? 0 : then.nanos()), delta(now.bytes(), then == null ? 0 : then.bytes()),
        interval, byType(now, then));
  }

  /** Per allocated type, the change of {@code countByType} and {@code bytesByType} since {@code then}. */
  private static Map<String, long[]> byType(Reading now, Reading then) {
    Map<String, Long> counts0 = then == null ? Map.of() : then.countByType();
    Map<String, Long> bytes0 = then == null ? Map.of() : then.bytesByType();
    Map<String, long[]> m = new HashMap<>();
    now.countByType().forEach((type, count) -> m.put(type, new long[] {delta(count, counts0.getOrDefault(type, 0L)),
        delta(now.bytesByType().getOrDefault(type, 0L), bytes0.getOrDefault(type, 0L))}));
    return m;
  }

  private static ProbeCostShare cost(Totals now, Totals then) {
    ProbeCost c = now.agent().cost();
    ProbeCost c0 = then.agent().cost();
    long process = now.agent().processCpuNanos() >= 0
        ? delta(now.agent().processCpuNanos(), then.agent().processCpuNanos()) : -1;
    long side = now.sideCpuNanos() >= 0 && then.sideCpuNanos() >= 0 ? delta(now.sideCpuNanos(), then.sideCpuNanos())
        : -1;
    long stackless = delta(now.stacklessSourceEvents(), then.stacklessSourceEvents());
    long events = Math.round(Math.max(0, delta(now.sourceEvents(), then.sourceEvents()) - stackless)
        * ProbePlan.WATCHED_EVENT_NANOS
        + stackless * ProbePlan.WATCHED_STACKLESS_EVENT_NANOS);
    long io = now.ioCalls() >= 0 && then.ioCalls() >= 0 ? delta(now.ioCalls(), then.ioCalls()) : -1;
    long daemon = now.daemonCpuNanos() >= 0 && then.daemonCpuNanos() >= 0
        ? delta(now.daemonCpuNanos(), then.daemonCpuNanos()) : -1;
    long toolJit = toolJit(now, then, side);
    return new ProbeCostShare(delta(c.probeNanos(), c0.probeNanos()),
        delta(now.agent().agentCpuNanos(), then.agent().agentCpuNanos()),
        delta(c.retransformNanos(), c0.retransformNanos()), process, side, events, io, daemon, toolJit);
  }

  /**
   * The target's JIT's CPU on the tool's behalf in the interval: the compiler and VM threads' CPU ({@code side}) times
   * the tool's share of the compilations' durations that ended in it. The durations are wall time: under load a
   * compilation lasts two or three times the compiler's CPU for it, and summed as they were they counted 22 s of the
   * tool's JIT in a 42 s run where the JIT used 9 s more CPU than alone. Without the threads' CPU, the durations.
   */
  static long toolJit(Totals now, Totals then, long side) {
    if (now.toolJitNanos() < 0 || then.toolJitNanos() < 0) {
      return -1;
    }
    long tool = delta(now.toolJitNanos(), then.toolJitNanos());
    long all = now.jitNanos() >= 0 && then.jitNanos() >= 0 ? delta(now.jitNanos(), then.jitNanos()) : -1;
    if (side < 0 || all < 0) {
      return tool;
    }
    return all == 0 ? 0 : Math.min(side, Math.round(side * ((double) Math.min(tool, all) / all)));
  }

  private static Map<String, Long> vmDeltas(Map<String, Long> vm, Map<String, Long> vm0) {
    Map<String, Long> deltas = new HashMap<>();
    vm.forEach((key, value) -> {
      if (vm0.containsKey(key)) {
        deltas.put(key, delta(value, vm0.get(key)));
      }
    });
    return deltas;
  }

  /** How much a cumulative total grew; an unknown one (negative) counts as 0, and a total never shrinks. */
  private static long delta(long now, long then) {
    return Math.max(0, Math.max(0, now) - Math.max(0, then));
  }

  private static long delta(Map<String, ?> now, Map<String, ?> then, String key) {
    return delta(Fields.numberOr(now, key, 0), Fields.numberOr(then, key, 0));
  }
}
