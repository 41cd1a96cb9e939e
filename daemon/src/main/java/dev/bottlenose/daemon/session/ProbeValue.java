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
    return perSecond(countDelta);
  }

  public double nanosPerSecond() {
    return perSecond(nanosDelta);
  }

  public double bytesPerSecond() {
    return perSecond(bytesDelta);
  }

  private double perSecond(long delta) {
    return intervalNanos <= 0 ? 0 : delta * 1e9 / intervalNanos;
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probeId", probeId);
    m.put("method", method);
    m.put("kind", kind);
    m.put("count", count);
    m.put("nanos", nanos);
    m.put("bytes", bytes);
    m.put("countDelta", countDelta);
    m.put("nanosDelta", nanosDelta);
    m.put("bytesDelta", bytesDelta);
    m.put("countPerSecond", countPerSecond());
    m.put("nanosPerSecond", nanosPerSecond());
    m.put("bytesPerSecond", bytesPerSecond());
    return m;
  }
}
