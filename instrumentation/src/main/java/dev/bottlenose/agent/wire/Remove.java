package dev.bottlenose.agent.wire;

import java.util.Map;

/** The {@code remove} request: one probe by id. */
public record Remove(long probeId) {
  public static final String OP = "remove";

  public Map<String, Object> toMap() {
    return Map.of("probeId", probeId);
  }

  public static Remove fromMap(Map<String, ?> m) {
    if (m.get("probeId") == null) {
      throw new WireException("probeId", null, "remove needs a probeId");
    }
    return new Remove(Fields.number(m, "probeId"));
  }
}
