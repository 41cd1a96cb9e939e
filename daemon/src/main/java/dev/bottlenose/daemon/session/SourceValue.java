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
    long countDelta, long nanosDelta, long bytesDelta, long intervalNanos, long throughMillis)
    implements IntervalTotals {

  public SourceValue {
    source = Map.copyOf(source);
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("sourceId", sourceId);
    m.put("source", new LinkedHashMap<>(source));
    putTotals(m);
    if (throughMillis >= 0) {
      m.put("throughMillis", throughMillis);
    }
    return m;
  }
}
