package dev.bottlenose.metrics;

import java.util.Map;

/**
 * What the agent measured at start (its hello's {@code calibration} object): the cost of one
 * non-inlined virtual call, of one small allocation, and the execution-sample period, in nanoseconds.
 * In metric files they are the constants {@code virtual_call_time}, {@code allocation_time} and
 * {@code sample_period}, in seconds per count.
 */
public record Calibration(double virtualCallNanos, double allocationNanos, double samplePeriodNanos) {
  /** The constants a metric file may name, with the calibration key each one reads. */
  static final Map<String, String> CONSTANTS =
      Map.of("virtual_call_time", "virtualCallNanos", "allocation_time", "allocationNanos", "sample_period", "samplePeriodNanos");

  public Calibration {
    if (!(virtualCallNanos >= 0) || !(allocationNanos >= 0) || !(samplePeriodNanos > 0)) {
      throw new IllegalArgumentException("calibration needs virtualCallNanos >= 0, allocationNanos >= 0 and samplePeriodNanos > 0: "
          + virtualCallNanos + ", " + allocationNanos + ", " + samplePeriodNanos);
    }
  }

  /** Reads the hello's {@code calibration} object ({@code {"virtualCallNanos":…, …}}). */
  public static Calibration fromJson(Map<?, ?> json) {
    return new Calibration(number(json, "virtualCallNanos"), number(json, "allocationNanos"), number(json, "samplePeriodNanos"));
  }

  double nanos(String key) {
    switch (key) {
      case "virtualCallNanos":
        return virtualCallNanos;
      case "allocationNanos":
        return allocationNanos;
      default:
        return samplePeriodNanos;
    }
  }

  private static double number(Map<?, ?> json, String key) {
    if (!(json.get(key) instanceof Number n)) {
      throw new IllegalArgumentException("calibration has no number '" + key + "': " + json);
    }
    return n.doubleValue();
  }
}
