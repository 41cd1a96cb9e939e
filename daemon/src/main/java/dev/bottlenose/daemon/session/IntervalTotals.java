package dev.bottlenose.daemon.session;

import java.util.Map;

/**
 * The count / nanos / bytes of one interval that a probe's and a watched source's values share: totals since
 * the start, the interval's change, and that change per second ({@code nanos} per second is a fraction of one
 * thread's time). {@link ProbeValue} and {@link SourceValue} are these plus what names them.
 */
public interface IntervalTotals {
  long count();

  long nanos();

  long bytes();

  long countDelta();

  long nanosDelta();

  long bytesDelta();

  long intervalNanos();

  default double countPerSecond() {
    return perSecond(countDelta(), intervalNanos());
  }

  default double nanosPerSecond() {
    return perSecond(nanosDelta(), intervalNanos());
  }

  default double bytesPerSecond() {
    return perSecond(bytesDelta(), intervalNanos());
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

  /** {@code delta} per second of an interval of {@code intervalNanos}; 0 for an empty interval. */
  static double perSecond(long delta, long intervalNanos) {
    return intervalNanos <= 0 ? 0 : delta * 1e9 / intervalNanos;
  }
}
