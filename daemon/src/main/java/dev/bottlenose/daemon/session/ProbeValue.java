package dev.bottlenose.daemon.session;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One probe's values in one interval: cumulative totals since insertion, the change over the interval,
 * and that change per second. {@code nanos} per second is a fraction of one thread's wall time.
 */
public record ProbeValue(long probeId, String method, String kind, long count, long nanos, long bytes,
    long countDelta, long nanosDelta, long bytesDelta, long intervalNanos) {

  public double countPerSecond() {
    return IntervalTotals.perSecond(countDelta, intervalNanos);
  }

  public double nanosPerSecond() {
    return IntervalTotals.perSecond(nanosDelta, intervalNanos);
  }

  public double bytesPerSecond() {
    return IntervalTotals.perSecond(bytesDelta, intervalNanos);
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probeId", probeId);
    m.put("method", method);
    m.put("kind", kind);
    IntervalTotals.put(m, count, nanos, bytes, countDelta, nanosDelta, bytesDelta, intervalNanos);
    return m;
  }
}
