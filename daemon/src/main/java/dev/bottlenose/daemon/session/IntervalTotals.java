package dev.bottlenose.daemon.session;

import java.util.Map;

/**
 * What probe and source values share: count / nanos / bytes totals since they began, their change over one
 * interval, and that change per second ({@code nanos} per second is a fraction of one thread's time).
 */
public sealed interface IntervalTotals permits ProbeValue, SourceValue {
  long count();

  long nanos();

  long bytes();

  long countDelta();

  long nanosDelta();

  long bytesDelta();

  long intervalNanos();

  default double countPerSecond() {
    return perSecond(countDelta());
  }

  default double nanosPerSecond() {
    return perSecond(nanosDelta());
  }

  default double bytesPerSecond() {
    return perSecond(bytesDelta());
  }

  /** {@code delta} per second of this interval; 0 for an empty interval. */
  private double perSecond(long delta) {
    return intervalNanos() <= 0 ? 0 : delta * 1e9 / intervalNanos();
  }

  /** Puts the totals, their deltas and their per-second rates into {@code m}, in the wire's field order. */
  default void putTotals(Map<String, Object> m) {
    m.put("count", count());
    m.put("nanos", nanos());
    m.put("bytes", bytes());
    m.put("countDelta", countDelta());
    m.put("nanosDelta", nanosDelta());
    m.put("bytesDelta", bytesDelta());
    m.put("countPerSecond", countPerSecond());
    m.put("nanosPerSecond", nanosPerSecond());
    m.put("bytesPerSecond", bytesPerSecond());
  }
}
