package dev.bottlenose.daemon.session;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One watched source's values in one interval: totals since it was watched, the change over the interval
 * and that change per second ({@code nanos} per second is a fraction of one thread's time), and the time
 * the agent's counts are complete through ({@code throughMillis}, its last JFR flush; -1 when the agent
 * does not say).
 */
public record SourceValue(long sourceId, Map<String, Object> source, long count, long nanos, long bytes,
    long countDelta, long nanosDelta, long bytesDelta, long intervalNanos, long throughMillis) {

  public SourceValue {
    source = Map.copyOf(source);
  }

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
    m.put("sourceId", sourceId);
    m.put("source", new LinkedHashMap<>(source));
    IntervalTotals.put(m, count, nanos, bytes, countDelta, nanosDelta, bytesDelta, intervalNanos);
    if (throughMillis >= 0) {
      m.put("throughMillis", throughMillis);
    }
    return m;
  }
}
