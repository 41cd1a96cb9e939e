package dev.bottlenose.daemon.cli;

import dev.bottlenose.daemon.session.ProbeCostShare;
import dev.bottlenose.daemon.session.ProbeValue;
import java.util.Locale;

/** The one-line renderings of values the commands print. */
final class ValueFormat {
  private ValueFormat() {}

  static String probe(ProbeValue v) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "count %d (+%d, %.1f/s)", v.count(), v.countDelta(), v.countPerSecond()));
    if (v.nanos() > 0) {
      sb.append(String.format(Locale.ROOT, "  time %.1f ms (%.1f ms/s)", v.nanos() / 1e6, v.nanosPerSecond() / 1e6));
    }
    if (v.bytes() > 0) {
      sb.append(String.format(Locale.ROOT, "  bytes %d (%.0f/s)", v.bytes(), v.bytesPerSecond()));
    }
    return sb.toString();
  }

  static String cost(ProbeCostShare c) {
    double f = c.fraction();
    String share = Double.isNaN(f) ? "process CPU unknown"
        : String.format(Locale.ROOT, "%.3f%% of process CPU", f * 100);
    return String.format(Locale.ROOT, "probe cost %.2f ms (%s)", c.totalNanos() / 1e6, share);
  }

  static String millis(long nanos) {
    return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
  }
}
