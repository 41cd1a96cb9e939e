package dev.bottlenose.agent.wire;

import java.util.Map;

/**
 * The {@code bye} request: no arguments; answered with {@code {}}, then the agent removes the session's probes and
 * sources and closes the channel. The agent pushes no bye of its own: its end of a session is the channel closing.
 */
public record Bye() {
  public static final String OP = "bye";

  public Map<String, Object> toMap() {
    return Map.of();
  }

  public static Bye fromMap(Map<String, ?> m) {
    return new Bye();
  }

  /** Whether a request frame is a bye (its {@code op}). */
  public static boolean isBye(Map<String, ?> request) {
    return OP.equals(request.get("op"));
  }
}
