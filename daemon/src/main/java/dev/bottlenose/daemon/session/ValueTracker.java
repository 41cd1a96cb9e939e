package dev.bottlenose.daemon.session;

import dev.bottlenose.daemon.channel.Wire;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Turns the agent's cumulative {@code read} answers into per-interval samples. Not thread-safe. */
final class ValueTracker {
  private Map<String, Object> previous;
  private final Map<Long, Map<String, Object>> previousReadings = new HashMap<>();

  /** The sample for the interval since the previous read; null for the first read, which is the baseline. */
  Sample next(Map<String, Object> read, long atMillis, Map<Long, ProbeInfo> probes) {
    Map<String, Object> before = previous;
    previous = read;
    Map<Long, Map<String, Object>> readingsBefore = new HashMap<>(previousReadings);
    previousReadings.clear();
    for (Map<String, Object> r : Wire.maps(read, "readings")) {
      previousReadings.put(Wire.longOf(r, "probeId", -1), r);
    }
    if (before == null) {
      return null;
    }
    long interval = delta(read, before, "nanoTime");
    List<ProbeValue> values = new ArrayList<>();
    for (Map<String, Object> r : Wire.maps(read, "readings")) {
      values.add(value(r, readingsBefore.get(Wire.longOf(r, "probeId", -1)), interval, probes));
    }
    return new Sample(atMillis, interval, values, cost(read, before), vmDeltas(read, before));
  }

  private static ProbeValue value(Map<String, Object> now, Map<String, Object> then, long interval,
      Map<Long, ProbeInfo> probes) {
    Map<String, Object> base = then == null ? Map.of() : then;
    long id = Wire.longOf(now, "probeId", -1);
    ProbeInfo info = probes.get(id);
    return new ProbeValue(id, info == null ? "" : info.method(), Wire.text(now, "kind"),
        Wire.longOf(now, "count", 0), Wire.longOf(now, "nanos", 0), Wire.longOf(now, "bytes", 0),
        delta(now, base, "count"), delta(now, base, "nanos"), delta(now, base, "bytes"), interval);
  }

  private static ProbeCostShare cost(Map<String, Object> now, Map<String, Object> then) {
    Map<String, Object> c = Wire.map(now, "cost");
    Map<String, Object> c0 = Wire.map(then, "cost");
    long process = now.get("processCpuNanos") instanceof Number ? delta(now, then, "processCpuNanos") : -1;
    return new ProbeCostShare(delta(c, c0, "probeNanos"), delta(now, then, "agentCpuNanos"),
        delta(c, c0, "retransformNanos"), process);
  }

  private static Map<String, Long> vmDeltas(Map<String, Object> now, Map<String, Object> then) {
    Map<String, Object> vm = Wire.map(now, "vm");
    Map<String, Object> vm0 = Wire.map(then, "vm");
    Map<String, Long> deltas = new HashMap<>();
    for (String key : vm.keySet()) {
      if (vm.get(key) instanceof Number && vm0.get(key) instanceof Number) {
        deltas.put(key, delta(vm, vm0, key));
      }
    }
    return deltas;
  }

  private static long delta(Map<String, ?> now, Map<String, ?> then, String key) {
    return Math.max(0, Wire.longOf(now, key, 0) - Wire.longOf(then, key, 0));
  }
}
