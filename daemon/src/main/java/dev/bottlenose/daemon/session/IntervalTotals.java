package dev.bottlenose.daemon.session;

import java.util.Map;

/** The count / nanos / bytes totals of one interval that probe and source values share, and their rates. */
final class IntervalTotals {

  /** {@code delta} per second of an interval of {@code intervalNanos}; 0 for an empty interval. */
  static double perSecond(long delta, long intervalNanos) {
    return intervalNanos <= 0 ? 0 : delta * 1e9 / intervalNanos;
  }

  /** Puts the totals, their deltas and their per-second rates into {@code m}, in the wire's field order. */
  static void put(Map<String, Object> m, long count, long nanos, long bytes,
      long countDelta, long nanosDelta, long bytesDelta, long intervalNanos) {
    m.put("count", count);
    m.put("nanos", nanos);
    m.put("bytes", bytes);
    m.put("countDelta", countDelta);
    m.put("nanosDelta", nanosDelta);
    m.put("bytesDelta", bytesDelta);
    m.put("countPerSecond", perSecond(countDelta, intervalNanos));
    m.put("nanosPerSecond", perSecond(nanosDelta, intervalNanos));
    m.put("bytesPerSecond", perSecond(bytesDelta, intervalNanos));
  }

  private IntervalTotals() {}
}
