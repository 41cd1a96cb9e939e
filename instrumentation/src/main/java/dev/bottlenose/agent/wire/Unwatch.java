package dev.bottlenose.agent.wire;

import java.util.Map;

/** The {@code unwatch} request: one of the session's watched sources by id. */
public record Unwatch(long sourceId) {
  public static final String OP = "unwatch";

  public Map<String, Object> toMap() {
    return Map.of("sourceId", sourceId);
  }

  public static Unwatch fromMap(Map<String, ?> m) {
    if (m.get("sourceId") == null) {
      throw new WireException("sourceId", null, "unwatch needs a sourceId");
    }
    return new Unwatch(Fields.number(m, "sourceId"));
  }
}
