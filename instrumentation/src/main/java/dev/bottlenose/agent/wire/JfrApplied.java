package dev.bottlenose.agent.wire;

import java.util.Map;

/** The answer to {@code jfr}: how many tuples were applied, and whether this session's digest was taken (only the oldest open session's is). */
public record JfrApplied(long applied, boolean taken) {
  public Map<String, Object> toMap() {
    return Map.of("applied", applied, "taken", taken);
  }

  public static JfrApplied fromMap(Map<String, ?> m) {
    return new JfrApplied(Fields.number(m, "applied", 0), Boolean.TRUE.equals(m.get("taken")));
  }
}
