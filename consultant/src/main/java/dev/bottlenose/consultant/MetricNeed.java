package dev.bottlenose.consultant;

import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import java.util.EnumSet;
import java.util.Set;

/**
 * One metric a hypothesis needs: the metric name, how a {@code /Code} part of the focus constrains it
 * (exclusive, inclusive, caller), whether it divides the value ({@link Role#PER}) and whether it is
 * measured at the node's focus or at the whole process the focus lies in. A need may name another metric for
 * the foci that constrain some hierarchies ({@code orAt}): I/O time is sampled where the question is which code
 * or thread, and read from the I/O events where it is which file or socket, which samples cannot tell; lock
 * waiting is sampled where it is whether, in which threads and on which lock, and counted from every wait where it
 * is which code.
 */
public record MetricNeed(String metric, ConstraintMode mode, Role role, Scope scope, Set<Hierarchy> otherAt, String other) {

  public enum Role {
    VALUE,
    PER
  }

  public enum Scope {
    FOCUS,
    PROCESS
  }

  public MetricNeed {
    if (metric == null || metric.isEmpty()) {
      throw new IllegalArgumentException("metric name is empty");
    }
  }

  public MetricNeed(String metric, ConstraintMode mode, Role role, Scope scope) {
    this(metric, mode, role, scope, Set.of(), null);
  }

  public static MetricNeed of(String metric) {
    return new MetricNeed(metric, ConstraintMode.INCLUSIVE, Role.VALUE, Scope.FOCUS);
  }

  public static MetricNeed of(String metric, ConstraintMode mode) {
    return new MetricNeed(metric, mode, Role.VALUE, Scope.FOCUS);
  }

  public static MetricNeed per(String metric, Scope scope) {
    return new MetricNeed(metric, ConstraintMode.INCLUSIVE, Role.PER, scope);
  }

  /**
   * This need, measured with {@code metric} instead at the foci that constrain {@code hierarchy} (and the
   * hierarchies named before: one other metric per need).
   */
  public MetricNeed orAt(Hierarchy hierarchy, String metric) {
    if (other != null && !other.equals(metric)) {
      throw new IllegalArgumentException("a need has one other metric: " + other + ", not also " + metric);
    }
    Set<Hierarchy> at = otherAt.isEmpty() ? EnumSet.noneOf(Hierarchy.class) : EnumSet.copyOf(otherAt);
    at.add(hierarchy);
    return new MetricNeed(this.metric, mode, role, scope, Set.copyOf(at), metric);
  }

  /** The request this need makes for a node at {@code focus}. */
  public MetricRequest requestAt(Focus focus) {
    Focus f = scope == Scope.FOCUS ? focus : Focus.of(focus.get(Hierarchy.PROCESS), focus.get(Hierarchy.MACHINE));
    boolean other = otherAt.stream().anyMatch(h -> !f.get(h).isRoot());
    return new MetricRequest(other ? this.other : metric, f, mode);
  }
}
