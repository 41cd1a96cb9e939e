package dev.bottlenose.consultant.rules;

/**
 * The timing settings the rules use (not API): the consistent evidence a verdict needs, the time after
 * which a node without one is unknown, and how long passing evidence must have held before the node's
 * refinements start ahead of its verdict.
 */
public record Timing(double sufficientSeconds, double decisionTimeoutSeconds, double earlyRefinementSeconds) {}
