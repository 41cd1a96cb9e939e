package dev.bottlenose.consultant;

/** Why a measurement could not be made; the consultant turns it into an unknown or pruned node. */
public record MeasurementFailure(Kind kind, String reason) {

  public enum Kind {
    /** The metric does not exist or cannot be computed for this target: the node is unknown. */
    METRIC_UNAVAILABLE,
    /** The focus names a resource the target does not have: the node is pruned (stopped). */
    FOCUS_UNKNOWN,
    /** The target exited or its daemon went away: the node is unknown. */
    TARGET_GONE
  }
}
