package dev.bottlenose.agent.wire;

import java.util.Map;

/** The {@code read} request: no arguments; answered with every probe's counters and the agent's costs ({@link ReadReply}). */
public record Read() {
  public static final String OP = "read";

  public Map<String, Object> toMap() {
    return Map.of();
  }

  public static Read fromMap(Map<String, ?> m) {
    return new Read();
  }
}
