package dev.bottlenose.daemon.session;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One watched source's values in one interval: totals since it was watched, the change over the interval
 * and that change per second ({@code nanos} per second is a fraction of one thread's time).
 */
public record SourceValue(long sourceId, Map<String, Object> source, long count, long nanos, long bytes,
    long countDelta, long nanosDelta, long bytesDelta, long intervalNanos) {

  public SourceValue {
    source = Map.copyOf(source);
  }

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
    m.put("sourceId", sourceId);
    m.put("source", new LinkedHashMap<>(source));
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
