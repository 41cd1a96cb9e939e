package dev.bottlenose.daemon.session;

import dev.bottlenose.agent.wire.Fields;
import dev.bottlenose.metrics.ProbePlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Turns the agent's cumulative {@code read} answers into per-interval samples. Not thread-safe. */
final class ValueTracker {
  private Map<String, Object> previous;
  private final Map<Long, Map<String, Object>> previousReadings = new HashMap<>();
  private final Map<Long, Map<String, Object>> previousSources = new HashMap<>();

  Sample next(Map<String, Object> read, long atMillis, Map<Long, ProbeInfo> probes) {
    return next(read, atMillis, probes, Map.of());
  }

  /** The sample for the interval since the previous read; null for the first read, which is the baseline. */
  Sample next(Map<String, Object> read, long atMillis, Map<Long, ProbeInfo> probes, Map<Long, SourceInfo> sources) {
    Map<String, Object> before = previous;
    previous = read;
    Map<Long, Map<String, Object>> readingsBefore = remember(previousReadings, read, "readings", "probeId");
    Map<Long, Map<String, Object>> sourcesBefore = remember(previousSources, read, "sources", "sourceId");
    if (before == null) {
      return null;
    }
    long interval = delta(read, before, "nanoTime");
    List<ProbeValue> values = new ArrayList<>();
    for (Map<String, Object> r : Fields.mapsOr(read, "readings")) {
      values.add(value(r, readingsBefore.get(Fields.numberOr(r, "probeId", -1)), interval, probes));
    }
    List<SourceValue> sourceValues = new ArrayList<>();
    for (Map<String, Object> r : Fields.mapsOr(read, "sources")) {
      sourceValues.add(source(r, sourcesBefore.get(Fields.numberOr(r, "sourceId", -1)), interval, sources));
    }
    return new Sample(atMillis, interval, values, cost(read, before), vmDeltas(read, before), sourceValues);
  }

  /** Replaces {@code last} with the entries of {@code read}'s list by id; returns what it held before. */
  private static Map<Long, Map<String, Object>> remember(Map<Long, Map<String, Object>> last, Map<String, Object> read,
      String list, String idField) {
    Map<Long, Map<String, Object>> before = new HashMap<>(last);
    last.clear();
    for (Map<String, Object> r : Fields.mapsOr(read, list)) {
      last.put(Fields.numberOr(r, idField, -1), r);
    }
    return before;
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

  private static ProbeValue value(Map<String, Object> now, Map<String, Object> then, long interval,
      Map<Long, ProbeInfo> probes) {
    Map<String, Object> base = then == null ? Map.of() : then;
    long id = Fields.numberOr(now, "probeId", -1);
    ProbeInfo info = probes.get(id);
    return new ProbeValue(id, info == null ? "" : info.method(), Fields.textOr(now, "kind"),
        Fields.numberOr(now, "count", 0), Fields.numberOr(now, "nanos", 0), Fields.numberOr(now, "bytes", 0),
        delta(now, base, "count"), delta(now, base, "nanos"), delta(now, base, "bytes"), interval, byType(now, base));
  }

  /** Per allocated type, the change of {@code countByType} and {@code bytesByType} since {@code then}. */
  private static Map<String, long[]> byType(Map<String, Object> now, Map<String, Object> then) {
    Map<String, Object> counts = Fields.mapOr(now, "countByType");
    Map<String, Object> bytes = Fields.mapOr(now, "bytesByType");
    Map<String, Object> counts0 = Fields.mapOr(then, "countByType");
    Map<String, Object> bytes0 = Fields.mapOr(then, "bytesByType");
    Map<String, long[]> m = new HashMap<>();
    for (String type : counts.keySet()) {
      m.put(type, new long[] {delta(counts, counts0, type), delta(bytes, bytes0, type)});
    }
    return m;
  }

  private static ProbeCostShare cost(Map<String, Object> now, Map<String, Object> then) {
    Map<String, Object> c = Fields.mapOr(now, "cost");
    Map<String, Object> c0 = Fields.mapOr(then, "cost");
    long process = now.get("processCpuNanos") instanceof Number ? delta(now, then, "processCpuNanos") : -1;
    long side = now.get("sideCpuNanos") instanceof Number && then.get("sideCpuNanos") instanceof Number
        ? delta(now, then, "sideCpuNanos") : -1;
    long events = Math.round(delta(now, then, "sourceEvents") * ProbePlan.WATCHED_EVENT_NANOS);
    return new ProbeCostShare(delta(c, c0, "probeNanos"), delta(now, then, "agentCpuNanos"),
        delta(c, c0, "retransformNanos"), process, side, events);
  }

  private static Map<String, Long> vmDeltas(Map<String, Object> now, Map<String, Object> then) {
    Map<String, Object> vm = Fields.mapOr(now, "vm");
    Map<String, Object> vm0 = Fields.mapOr(then, "vm");
    Map<String, Long> deltas = new HashMap<>();
    for (String key : vm.keySet()) {
      if (vm.get(key) instanceof Number && vm0.get(key) instanceof Number) {
        deltas.put(key, delta(vm, vm0, key));
      }
    }
    return deltas;
  }

  private static long delta(Map<String, ?> now, Map<String, ?> then, String key) {
    return Math.max(0, Fields.numberOr(now, key, 0) - Fields.numberOr(then, key, 0));
  }
}
