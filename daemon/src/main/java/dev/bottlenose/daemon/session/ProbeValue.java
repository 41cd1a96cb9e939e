package dev.bottlenose.daemon.session;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One probe's values in one interval: cumulative totals since insertion, the change over the interval,
 * and that change per second. {@code nanos} per second is a fraction of one thread's wall time. For an
 * allocation probe, {@code byType} holds the interval's change per allocated type: {count, bytes}.
 */
public record ProbeValue(long probeId, String method, String kind, long count, long nanos, long bytes,
    long countDelta, long nanosDelta, long bytesDelta, long intervalNanos, Map<String, long[]> byType)
    implements IntervalTotals {

  public ProbeValue {
    byType = Map.copyOf(byType);
  }

  public ProbeValue(long probeId, String method, String kind, long count, long nanos, long bytes,
      long countDelta, long nanosDelta, long bytesDelta, long intervalNanos) {
    this(probeId, method, kind, count, nanos, bytes, countDelta, nanosDelta, bytesDelta, intervalNanos, Map.of());
  }

  /** The interval's {count, bytes} of objects of one allocated type ({0, 0} when none). */
  public long[] typeDelta(String type) {
    return byType.getOrDefault(type, new long[2]);
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probeId", probeId);
    m.put("method", method);
    m.put("kind", kind);
    putTotals(m);
    return m;
  }
}
