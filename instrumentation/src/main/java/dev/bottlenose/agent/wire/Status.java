package dev.bottlenose.agent.wire;

import java.util.Map;

/** The {@code status} request: no arguments; answered with the agent's own state ({@link AgentStatus}). */
public record Status() {
  public static final String OP = "status";

  public Map<String, Object> toMap() {
    return Map.of();
  }

  public static Status fromMap(Map<String, ?> m) {
    return new Status();
  }
}
