package dev.bottlenose.agent.wire;

import java.util.Map;

/**
 * The {@code dump} request: write the agent's JFR recording as it is now (the last two minutes at most) to a new
 * file of the target's user, for the session that asks alone; answered with {@link DumpReply}. The session reads the
 * file and deletes it and its directory; the agent deletes what is left of it when the session dumps again or ends.
 */
public record Dump() {
  public static final String OP = "dump";

  public Map<String, Object> toMap() {
    return Map.of();
  }

  public static Dump fromMap(Map<String, ?> m) {
    return new Dump();
  }
}
