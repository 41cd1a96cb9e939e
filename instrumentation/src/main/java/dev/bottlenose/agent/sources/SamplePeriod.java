package dev.bottlenose.agent.sources;

import java.util.Map;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * The period JFR really samples threads at: the shortest {@code jdk.ExecutionSample} period of any running
 * recording (another recording, such as a profiling one started with JMC, may sample faster than ours).
 * Worked out again at every stream flush, so {@code cpu_sample} nanos stay samples times the true period; the
 * configured period only when no recording samples at all. Not the configured period as a floor: sources may
 * ask for a longer one ({@code period}), and then the recordings sample slower than configured.
 */
final class SamplePeriod {
  private static final String PERIOD = "jdk.ExecutionSample#period";
  private static final String ENABLED = "jdk.ExecutionSample#enabled";

  private final long configuredNanos;
  private volatile long nanos;

  SamplePeriod(long configuredNanos) {
    this.configuredNanos = configuredNanos;
    this.nanos = configuredNanos;
  }

  long nanos() {
    return nanos;
  }

  void update() {
    long shortest = Long.MAX_VALUE;
    for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
      Map<String, String> settings = r.getState() == RecordingState.RUNNING ? r.getSettings() : Map.of();
      if ("true".equals(settings.get(ENABLED))) {
        long p = parse(settings.get(PERIOD));
        if (p > 0) {
          shortest = Math.min(shortest, p);
        }
      }
    }
    nanos = shortest == Long.MAX_VALUE ? configuredNanos : shortest;
  }

  /**
   * Nanoseconds of {@code "20 ms"}, {@code "1 s"}, {@code "500 us"}…; -1 when not a duration. No regular
   * expression: merging the recording's settings calls this for every source at every watch.
   */
  static long parse(String text) {
    if (text == null) {
      return -1;
    }
    String t = text.trim();
    int space = t.indexOf(' ');
    if (space < 0) {
      return -1;
    }
    String unit = t.substring(space + 1).trim();
    try {
      long n = Long.parseLong(t.substring(0, space));
      return switch (unit) {
        case "ns" -> n;
        case "us" -> n * 1_000;
        case "ms" -> n * 1_000_000;
        case "s" -> n * 1_000_000_000;
        default -> -1;
      };
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
