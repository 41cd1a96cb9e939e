package dev.bottlenose.agent.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A probe taken out: the answer to {@code remove}, and an item of the {@code removed} list of {@code removeMany}
 * and {@code removeAll}: its class, its share of the retransformation, and whether the class has its original
 * bytes again.
 */
public record Removed(long probeId, String className, long retransformNanos, boolean classRestored) {
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probeId", probeId);
    m.put("className", className);
    m.put("retransformNanos", retransformNanos);
    m.put("classRestored", classRestored);
    return m;
  }

  public static Removed fromMap(Map<String, ?> m) {
    return new Removed(Fields.number(m, "probeId"), Fields.text(m, "className"), Fields.number(m, "retransformNanos", 0),
        Boolean.TRUE.equals(m.get("classRestored")));
  }
}
