package dev.bottlenose.consultant.bus;

/**
 * Restamps one measurement's values of watched sources on the data's own time. The daemon evaluates a
 * source's events in the sample that read them, but JFR delivers them about once a second, a second or
 * two after they happened: with 0.5 s samples, a steady rate reads as zero, then twice the rate. Each
 * sample says how far the agent has counted ({@code dataThroughMillis}, its last JFR flush). A stretch of
 * data time gets exactly the events counted while it was delivered, so its value is the rate of that
 * stretch; a sample that brought no new data time yields no value, and the events it did bring wait for
 * the stretch they belong to.
 */
final class DataTime {
  /** One value on the data's own time: the rate over {@code fromMillis}..{@code toMillis}. */
  record Stretch(long fromMillis, long toMillis, double value) {}

  private final long sinceMillis;
  private long through = -1;
  private double pendingValueSeconds;

  /** {@code sinceMillis}: when the daemon enabled the metric (its sources count from then), or -1. */
  DataTime(long sinceMillis) {
    this.sinceMillis = sinceMillis;
  }

  /** A sample's value over its interval, with the time its data is counted through; the new stretch or null. */
  Stretch sampled(double value, long intervalMillis, long throughMillis) {
    double valueSeconds = value * intervalMillis / 1000.0;
    if (through < 0) {
      if (sinceMillis < 0) {
        through = throughMillis;
        return null;
      }
      through = sinceMillis;
    }
    pendingValueSeconds += valueSeconds;
    if (throughMillis <= through) {
      return null;
    }
    Stretch s = new Stretch(through, throughMillis, pendingValueSeconds * 1000.0 / (throughMillis - through));
    through = throughMillis;
    pendingValueSeconds = 0;
    return s;
  }
}
