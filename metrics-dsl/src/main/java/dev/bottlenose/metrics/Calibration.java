package dev.bottlenose.metrics;

import java.util.Map;

/**
 * What the agent measured at start (its hello's {@code calibration} object): the cost of one
 * non-inlined virtual call, of one small allocation, and the execution-sample period, in nanoseconds.
 * In metric files they are the constants {@code virtual_call_time}, {@code allocation_time} and
 * {@code sample_period}, in seconds per count; and {@code allocation_size}, the bytes of the object whose
 * allocation {@code allocation_time} is (the agent allocates an {@code int[1]}: 24 bytes on HotSpot, with
 * compressed class pointers or without).
 */
public record Calibration(double virtualCallNanos, double allocationNanos, double samplePeriodNanos) {
  /** The key of {@code allocation_size}: not from the hello, and in bytes per object, not seconds per count. */
  static final String ALLOCATION_BYTES = "allocationBytes";
  /** The constants a metric file may name, with the calibration key each one reads. */
  static final Map<String, String> CONSTANTS = Map.of("virtual_call_time", "virtualCallNanos", "allocation_time",
      "allocationNanos", "sample_period", "samplePeriodNanos", "allocation_size", ALLOCATION_BYTES);
  /** The size of the agent's calibration allocation, {@code new int[] {i}}: a 16-byte array header and 4 bytes, aligned to 8. */
  static final double CALIBRATION_OBJECT_BYTES = 24;

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

  /** A constant's value in its own unit: seconds per count, or bytes per object for {@code allocation_size}. */
  double value(String key) {
    return key.equals(ALLOCATION_BYTES) ? CALIBRATION_OBJECT_BYTES : nanos(key) * 1e-9;
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
