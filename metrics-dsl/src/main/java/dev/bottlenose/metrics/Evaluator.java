package dev.bottlenose.metrics;

import java.util.Map;

/**
 * Computes a metric's value for one interval from the interval deltas of its plan's items, so the
 * daemon only subtracts cumulative readings and calls this.
 */
public final class Evaluator {

  /** What one item counted in the interval (a probe reading's or a source's count, nanos and bytes). */
  public record Delta(long count, long nanos, long bytes) {}

  /** The value of {@code plan}'s metric over an interval of {@code intervalNanos} with these item deltas (by item id). */
  public static double evaluate(ProbePlan plan, Map<String, Delta> deltas, long intervalNanos, Calibration calibration) {
    if (intervalNanos <= 0) {
      throw new MetricException("an interval must be longer than 0 ns, not " + intervalNanos);
    }
    for (ProbePlan.Item item : plan.items()) {
      if (!deltas.containsKey(item.id())) {
        throw new MetricException("no delta for item " + item.id() + " " + dev.bottlenose.model.json.Json.write(item.request()) + " of metric '" + plan.metric() + "'");
      }
    }
    return plan.formula().eval(new Interval(deltas, intervalNanos * 1e-9, calibration));
  }

  record Interval(Map<String, Delta> deltas, double seconds, Calibration calibration) {
    double delta(String id, String measure) {
      Delta d = deltas.get(id);
      if (d == null) {
        throw new MetricException("no delta for item " + id);
      }
      switch (measure) {
        case "count":
          return d.count();
        case "nanos":
          return d.nanos();
        case "bytes":
          return d.bytes();
        default:
          throw new MetricException("unknown measure '" + measure + "' of item " + id + "; expected count, nanos or bytes");
      }
    }
  }

  private Evaluator() {}
}
