package dev.bottlenose.agent.wire;

import java.util.Map;

/** The {@code removeAll} request: no arguments; the session's own probes go with one retransformation ({@link RemoveReply}). */
public record RemoveAll() {
  public static final String OP = "removeAll";

  public Map<String, Object> toMap() {
    return Map.of();
  }

  public static RemoveAll fromMap(Map<String, ?> m) {
    return new RemoveAll();
  }
}
