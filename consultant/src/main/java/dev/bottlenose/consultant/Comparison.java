package dev.bottlenose.consultant;

/** How a hypothesis compares its value with its threshold: true above it, or true below it. */
public enum Comparison {
  ABOVE,
  BELOW;

  /** True if {@code value} passes {@code threshold} scaled by {@code factor} (the hysteresis constant). */
  public boolean passes(double value, double threshold, double factor) {
    return this == ABOVE ? value > threshold * factor : value < threshold * factor;
  }
}
