package dev.bottlenose.daemon.session;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything read at the end of one interval: per-probe and per-source values, the measuring cost, VM
 * totals' changes, and the value of every enabled metric ({@link MetricValue}).
 */
public record Sample(long atMillis, long intervalNanos, List<ProbeValue> probes, ProbeCostShare cost,
    Map<String, Long> vmDeltas, List<SourceValue> sources, List<MetricValue> metrics) {

  public Sample {
    probes = List.copyOf(probes);
    vmDeltas = Map.copyOf(vmDeltas);
    sources = List.copyOf(sources);
    metrics = List.copyOf(metrics);
  }

  public Sample(long atMillis, long intervalNanos, List<ProbeValue> probes, ProbeCostShare cost,
      Map<String, Long> vmDeltas, List<SourceValue> sources) {
    this(atMillis, intervalNanos, probes, cost, vmDeltas, sources, List.of());
  }

  public Sample(long atMillis, long intervalNanos, List<ProbeValue> probes, ProbeCostShare cost,
      Map<String, Long> vmDeltas) {
    this(atMillis, intervalNanos, probes, cost, vmDeltas, List.of());
  }

  /** This sample with the given metric values. */
  public Sample withMetrics(List<MetricValue> values) {
    return new Sample(atMillis, intervalNanos, probes, cost, vmDeltas, sources, values);
  }

  /** The value of enabled metric {@code metricId} in this interval, or null. */
  public MetricValue metric(long metricId) {
    return metrics.stream().filter(m -> m.metricId() == metricId).findFirst().orElse(null);
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
    m.put("metrics", metrics.stream().map(MetricValue::toJson).toList());
    return m;
  }
}
