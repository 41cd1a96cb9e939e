package dev.bottlenose.agent.wire;

import dev.bottlenose.model.MethodRef;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A probe inserted: the answer to {@code insert}, and an item of {@code insertAll}'s {@code results}. The method
 * is the one the probe went into (with its descriptor); {@code retransformNanos} its share of the
 * retransformation that wove it.
 */
public record Inserted(long probeId, MethodRef method, long retransformNanos) {
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probeId", probeId);
    m.put("method", method.toPath().toString());
    m.put("retransformNanos", retransformNanos);
    return m;
  }

  public static Inserted fromMap(Map<String, ?> m) {
    return new Inserted(Fields.number(m, "probeId"), Fields.method(m, "method", true),
        Fields.number(m, "retransformNanos", 0));
  }
}
