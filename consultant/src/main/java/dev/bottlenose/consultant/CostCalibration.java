package dev.bottlenose.consultant;

import java.util.HashMap;
import java.util.Map;

/**
 * How far the port's cost predictions were off, learned from the costs observed: per kind of node (its
 * hypothesis: nodes of one kind measure the same metrics, so their predictions are off by the same factor),
 * and per node observed, so that a node measured within another of its kind is expected to cost at most
 * its share of what the enclosing one was seen to cost.
 */
final class CostCalibration {
  /** Per kind: observed and predicted cost of its nodes' first cost samples. */
  private final Map<String, double[]> underestimates = new HashMap<>();
  /** Per node ever observed: its latest observed cost and its prediction before calibration. */
  private final Map<Integer, double[]> lastSeen = new HashMap<>();

  /**
   * How much more the measurements of nodes of {@code kind} have cost than predicted so far (at least 1):
   * new predictions of that kind are scaled by it, so a port that underestimates is corrected after its
   * first cost samples. A kind not measured yet takes the median of the other kinds' factors. Per kind,
   * because a prediction can be off by a factor of a thousand for counters in a method called hundreds of
   * millions of times a second, and not at all for a JFR source: one factor for both would keep every
   * cheap node out of the budget.
   */
  double factor(String kind) {
    double[] own = underestimates.get(kind);
    if (own != null) {
      return factor(own);
    }
    double[] factors = underestimates.values().stream().mapToDouble(CostCalibration::factor).sorted().toArray();
    if (factors.length == 0) {
      return 1;
    }
    int mid = factors.length / 2;
    return factors.length % 2 == 1 ? factors[mid] : (factors[mid - 1] + factors[mid]) / 2;
  }

  private static double factor(double[] observedPredicted) {
    return Math.max(1, observedPredicted[0] / observedPredicted[1]);
  }

  /**
   * What a node of {@code kind} predicted at {@code raw} is expected to cost: the prediction scaled by its
   * kind's factor, and, measured within node {@code enclosing} (-1: none) that has been observed, at most
   * the enclosing node's observed cost shared out in proportion to the two predictions.
   */
  double expected(String kind, double raw, int enclosing) {
    double scaled = raw * factor(kind);
    double[] seen = lastSeen.get(enclosing);
    return seen == null || !(seen[1] > 0) ? scaled : Math.min(scaled, seen[0] * raw / seen[1]);
  }

  /** Node {@code nodeId} of {@code kind}, predicted at {@code raw}, was observed to cost {@code cost}; {@code first}: its first sample. */
  void observed(int nodeId, String kind, double raw, double cost, boolean first) {
    if (first && raw > 0) {
      double[] u = underestimates.computeIfAbsent(kind, k -> new double[2]);
      u[0] += cost;
      u[1] += raw;
    }
    lastSeen.put(nodeId, new double[] {cost, raw});
  }
}
