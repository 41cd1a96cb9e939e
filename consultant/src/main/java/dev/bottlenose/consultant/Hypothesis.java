package dev.bottlenose.consultant;

import dev.bottlenose.model.Hierarchy;
import java.util.List;

/**
 * One hypothesis of the why axis, declared: its id and display name, its parent (the hypothesis it
 * refines; null for the top-level one), the metrics it needs, how its value is compared with its
 * threshold (unit and default, overridable in the settings), the hysteresis around the threshold, and
 * the hierarchies a true node may be refined along, in the order they are tried. A hypothesis that
 * needs no metric is virtual: true as soon as one of its children is true.
 */
public record Hypothesis(
    String id,
    String displayName,
    String parent,
    List<MetricNeed> needs,
    Comparison comparison,
    double threshold,
    String unit,
    double hysteresis,
    List<Hierarchy> refineAlong) {

  public Hypothesis {
    if (id == null || !id.matches("[a-z][a-z0-9_]*")) {
      throw new IllegalArgumentException("hypothesis id must be lower-case letters, digits and '_': '" + id + "'");
    }
    needs = List.copyOf(needs);
    refineAlong = List.copyOf(refineAlong);
    long values = needs.stream().filter(n -> n.role() == MetricNeed.Role.VALUE).count();
    if (!needs.isEmpty() && values != 1) {
      throw new IllegalArgumentException("hypothesis " + id + " needs exactly one value metric, has " + values);
    }
    if (needs.stream().filter(n -> n.role() == MetricNeed.Role.PER).count() > 1) {
      throw new IllegalArgumentException("hypothesis " + id + " has more than one 'per' metric");
    }
    if (hysteresis < 0 || hysteresis >= 1) {
      throw new IllegalArgumentException("hypothesis " + id + ": hysteresis must be in [0, 1), is " + hysteresis);
    }
  }

  /** A virtual hypothesis (no metric): true while one of its children is true. */
  public static Hypothesis virtual(String id, String displayName) {
    return new Hypothesis(id, displayName, null, List.of(), Comparison.ABOVE, 0, "", 0, List.of());
  }

  public boolean isVirtual() {
    return needs.isEmpty();
  }

  public boolean refines(Hierarchy h) {
    return refineAlong.contains(h);
  }

  /** True if {@code next} comes after {@code current} in this hypothesis's refinement order. */
  public boolean refinesAfter(Hierarchy current, Hierarchy next) {
    int at = refineAlong.indexOf(current);
    int n = refineAlong.indexOf(next);
    return at >= 0 && n > at;
  }

  public MetricNeed valueNeed() {
    return needs.stream().filter(n -> n.role() == MetricNeed.Role.VALUE).findFirst().orElse(null);
  }

  public MetricNeed perNeed() {
    return needs.stream().filter(n -> n.role() == MetricNeed.Role.PER).findFirst().orElse(null);
  }

  /**
   * The bar a value must pass to become true: the threshold moved away by the hysteresis (above it for an
   * "above" test, below it for a "below" one).
   */
  public double becomingTrueBar() {
    return threshold * (1 + (comparison == Comparison.ABOVE ? 1 : -1) * hysteresis);
  }

  public Hypothesis withThreshold(double threshold, double hysteresis) {
    return new Hypothesis(id, displayName, parent, needs, comparison, threshold, unit, hysteresis, refineAlong);
  }
}
