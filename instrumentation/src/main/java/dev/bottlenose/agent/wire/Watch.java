package dev.bottlenose.agent.wire;

import java.util.Map;

/** The {@code watch} request: one source to count for this session. PROTOCOL.md, "Watched sources". */
public record Watch(SourceSpec source) {
  public static final String OP = "watch";

  public Watch {
    if (source == null) {
      throw new WireException("source", null, "watch needs a source {\"event\":…, \"code\":…, \"thread\":…, \"form\":…}");
    }
  }

  public Map<String, Object> toMap() {
    return Map.of("source", source.toMap());
  }

  /** Reads the request; a missing or malformed source throws naming the field. */
  public static Watch fromMap(Map<String, ?> m) {
    Object source = m.get("source");
    if (source == null) {
      throw new WireException("source", null, "watch needs a source {\"event\":…, \"code\":…, \"thread\":…, \"form\":…}");
    }
    return new Watch(SourceSpec.fromMap(source));
  }
}
