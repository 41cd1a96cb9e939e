package dev.bottlenose.agent.wire;

import java.util.Map;

/** The answer to {@code watch}: the id the agent gave the source (unique in the target, across sessions). */
public record Watched(long sourceId) {
  public Map<String, Object> toMap() {
    return Map.of("sourceId", sourceId);
  }

  public static Watched fromMap(Map<String, ?> m) {
    return new Watched(Fields.number(m, "sourceId"));
  }
}
