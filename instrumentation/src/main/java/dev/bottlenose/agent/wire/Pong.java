package dev.bottlenose.agent.wire;

import java.util.Map;

/** The answer to {@code ping}: the agent's {@code System.nanoTime()} when it answered. */
public record Pong(long nanoTime) {
  public Map<String, Object> toMap() {
    return Map.of("nanoTime", nanoTime);
  }

  public static Pong fromMap(Map<String, ?> m) {
    return new Pong(Fields.number(m, "nanoTime"));
  }
}
