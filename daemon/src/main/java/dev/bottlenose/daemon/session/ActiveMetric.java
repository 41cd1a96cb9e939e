package dev.bottlenose.daemon.session;

import dev.bottlenose.metrics.Calibration;
import dev.bottlenose.metrics.ProbePlan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A metric–focus pair this session measures: its compiled plan, and for each plan item the probes
 * (several for an expansion) or the source the session inserted for it; {@code cpuSamplePeriodNanos} the period its
 * {@code cpu_sample} sources sample at (the enable's, else the calibration's).
 */
public record ActiveMetric(long metricId, String metric, String focus, String requester, ProbePlan plan,
    Map<String, List<Long>> probesByItem, Map<String, Long> sourceByItem, int methodsSkipped,
    Map<String, String> classesBusy, Calibration calibration, double cpuSamplePeriodNanos, long sinceMillis) {

  public ActiveMetric {
    probesByItem = Map.copyOf(probesByItem);
    sourceByItem = Map.copyOf(sourceByItem);
    classesBusy = Map.copyOf(classesBusy);
  }

  /** What measuring it is expected to cost, at the period its cpu samples are taken at. */
  public ProbePlan.Cost predictedCost() {
    return plan.predictedCost(calibration, cpuSamplePeriodNanos);
  }

  public int probeCount() {
    return probesByItem.values().stream().mapToInt(List::size).sum();
  }

  /** What asked for this metric's probes and sources, as the ledger shows it. */
  static String askedBy(long metricId, String metric, String focus, String requester) {
    return requester + " (metric " + metricId + ": " + metric + " " + focus + ")";
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("metricId", metricId);
    m.put("metric", metric);
    m.put("focus", focus);
    m.put("unit", plan.unit());
    m.put("requester", requester);
    m.put("probes", probeCount());
    m.put("sources", sourceByItem.size());
    Map<String, Object> expanded = new LinkedHashMap<>();
    probesByItem.forEach((item, ids) -> {
      if (plan.items().stream().anyMatch(i -> i.id().equals(item) && i.type().equals("probes"))) {
        expanded.put(item, ids.size());
      }
    });
    m.put("methodsInstrumented", expanded);
    m.put("methodsSkipped", methodsSkipped);
    m.put("classesBusy", new TreeMap<>(classesBusy));
    m.put("plan", plan.toJson());
    m.put("predictedCost", predictedCost().toJson());
    m.put("predictedCostAt100PerSecond", predictedCost().fractionAt(100));
    m.put("sinceMillis", sinceMillis);
    return m;
  }
}
