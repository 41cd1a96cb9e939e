package dev.bottlenose.daemon.session;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything read at the end of one interval: per-probe and per-source values, the measuring cost, and VM
 * totals' changes.
 */
public record Sample(long atMillis, long intervalNanos, List<ProbeValue> probes, ProbeCostShare cost,
    Map<String, Long> vmDeltas, List<SourceValue> sources) {

  public Sample {
    probes = List.copyOf(probes);
    vmDeltas = Map.copyOf(vmDeltas);
    sources = List.copyOf(sources);
  }

  public Sample(long atMillis, long intervalNanos, List<ProbeValue> probes, ProbeCostShare cost,
      Map<String, Long> vmDeltas) {
    this(atMillis, intervalNanos, probes, cost, vmDeltas, List.of());
  }

  public SourceValue source(long sourceId) {
    return sources.stream().filter(s -> s.sourceId() == sourceId).findFirst().orElse(null);
  }

  public ProbeValue probe(long probeId) {
    return probes.stream().filter(p -> p.probeId() == probeId).findFirst().orElse(null);
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("atMillis", atMillis);
    m.put("intervalNanos", intervalNanos);
    m.put("probes", probes.stream().map(ProbeValue::toJson).toList());
    m.put("sources", sources.stream().map(SourceValue::toJson).toList());
    m.put("cost", cost.toJson());
    m.put("vm", new java.util.TreeMap<>(vmDeltas));
    return m;
  }
}
