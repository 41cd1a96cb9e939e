package dev.bottlenose.daemon.session;

import dev.bottlenose.agent.sources.SourceEvent;
import dev.bottlenose.metrics.Evaluator;
import dev.bottlenose.metrics.MetricException;
import dev.bottlenose.metrics.ProbePlan;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Evaluates one enabled metric over one sample's interval from its items' deltas. */
final class MetricReading {
  private MetricReading() {}

  static MetricValue of(ActiveMetric m, Sample sample) {
    Map<String, Evaluator.Delta> deltas = new HashMap<>();
    String missing = null;
    double maxRate = 0;
    double seconds = sample.intervalNanos() / 1e9;
    long through = m.sourceByItem().isEmpty() ? -1 : Long.MAX_VALUE;
    Map<String, String> types = allocatedTypes(m.plan());
    for (Map.Entry<String, List<Long>> e : m.probesByItem().entrySet()) {
      long count = 0;
      long nanos = 0;
      long bytes = 0;
      String type = types.get(e.getKey());
      for (long id : e.getValue()) {
        ProbeValue v = sample.probe(id);
        if (v == null) {
          missing = "probe " + id;
          continue;
        }
        long[] typed = type == null ? null : v.typeDelta(type);
        count += typed == null ? v.countDelta() : typed[0];
        nanos += v.nanosDelta();
        bytes += typed == null ? v.bytesDelta() : typed[1];
      }
      deltas.put(e.getKey(), new Evaluator.Delta(count, nanos, bytes));
      maxRate = Math.max(maxRate, seconds > 0 ? count / seconds : 0);
    }
    for (Map.Entry<String, Long> e : m.sourceByItem().entrySet()) {
      SourceValue v = sample.source(e.getValue());
      if (v == null) {
        missing = "source " + e.getValue();
        continue;
      }
      deltas.put(e.getKey(), new Evaluator.Delta(v.countDelta(), v.nanosDelta(), v.bytesDelta()));
      through = Math.min(through, v.throughMillis());
      if (!SourceEvent.isSampled(String.valueOf(v.source().get("event")))) {
        maxRate = Math.max(maxRate, v.countPerSecond());
      }
    }
    ProbePlan.Cost cost = m.predictedCost();
    double observed = sample.cost().fraction();
    long dataThrough = through == Long.MAX_VALUE ? -1 : through;
    if (missing != null) {
      return value(m, Double.NaN, maxRate, cost, observed, "no reading yet for " + missing, -1);
    }
    try {
      double v = Evaluator.evaluate(m.plan(), deltas, sample.intervalNanos(), m.calibration());
      return value(m, v, maxRate, cost, observed, null, dataThrough);
    } catch (MetricException e) {
      return value(m, Double.NaN, maxRate, cost, observed, e.getMessage(), dataThrough);
    }
  }

  /** Item id → the allocated type an allocation item counts only (a /Memory focus), for the items that name one. */
  private static Map<String, String> allocatedTypes(ProbePlan plan) {
    Map<String, String> types = new HashMap<>();
    for (ProbePlan.Item item : plan.items()) {
      if (item.request().get("allocatedType") instanceof String type) {
        types.put(item.id(), type);
      }
    }
    return types;
  }

  private static MetricValue value(ActiveMetric m, double v, double rate, ProbePlan.Cost cost, double observed,
      String error, long dataThrough) {
    return new MetricValue(m.metricId(), m.metric(), m.focus(), v, m.plan().unit(), rate, cost.fractionAt(rate),
        observed, error, dataThrough);
  }
}
