package dev.bottlenose.agent.wire;

import java.util.Map;

/** The {@code ledger} request: no arguments; answered with every session's probes and watched sources ({@link LedgerReply}). */
public record Ledger() {
  public static final String OP = "ledger";

  public Map<String, Object> toMap() {
    return Map.of();
  }

  public static Ledger fromMap(Map<String, ?> m) {
    return new Ledger();
  }
}
