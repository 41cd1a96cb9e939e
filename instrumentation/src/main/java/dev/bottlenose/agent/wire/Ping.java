package dev.bottlenose.agent.wire;

import java.util.Map;

/** The {@code ping} request: no arguments; also the heartbeat (the daemon sends one at least every heartbeat/3). */
public record Ping() {
  public static final String OP = "ping";

  public Map<String, Object> toMap() {
    return Map.of();
  }

  public static Ping fromMap(Map<String, ?> m) {
    return new Ping();
  }
}
