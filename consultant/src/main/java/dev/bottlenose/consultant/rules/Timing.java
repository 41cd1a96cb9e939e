package dev.bottlenose.consultant.rules;

/**
 * The timing settings the rules use (not API): the consistent evidence a verdict needs, the time after
 * which a node without one is unknown, how long passing evidence must have held before the node's
 * refinements start ahead of its verdict, and how long clearly passing evidence must have held to make the
 * node true before {@code sufficientSeconds} ({@link Evidence#clear}).
 */
public record Timing(double sufficientSeconds, double decisionTimeoutSeconds, double earlyRefinementSeconds,
    double clearSeconds) {
  /** Timing without early verdicts: clear evidence waits the sufficient time too. */
  public Timing(double sufficientSeconds, double decisionTimeoutSeconds, double earlyRefinementSeconds) {
    this(sufficientSeconds, decisionTimeoutSeconds, earlyRefinementSeconds, sufficientSeconds);
  }
}
