package dev.bottlenose.agent.wire;

import java.util.Map;

/**
 * The {@code holders} request: look {@code looks} times, {@code intervalMillis} apart, at which threads wait for a
 * lock another thread holds, and what the holder is doing; answered with {@link HoldersReply}. At most
 * {@link #MAX_LOOKS} looks and {@link #MAX_INTERVAL_MILLIS} between them, so a request is over in about two seconds.
 */
public record Holders(int looks, long intervalMillis) {
  public static final String OP = "holders";
  public static final int MAX_LOOKS = 20;
  public static final long MAX_INTERVAL_MILLIS = 100;

  public Holders {
    if (looks < 1 || looks > MAX_LOOKS) {
      throw new WireException("looks", looks, "looks must be 1.." + MAX_LOOKS + ", is " + looks);
    }
    if (intervalMillis < 0 || intervalMillis > MAX_INTERVAL_MILLIS) {
      throw new WireException("intervalMillis", intervalMillis, "intervalMillis must be 0.." + MAX_INTERVAL_MILLIS
          + ", is " + intervalMillis);
    }
  }

  public Map<String, Object> toMap() {
    return Map.of("looks", (long) looks, "intervalMillis", intervalMillis);
  }

  public static Holders fromMap(Map<String, ?> m) {
    return new Holders((int) Fields.number(m, "looks"), Fields.number(m, "intervalMillis"));
  }
}
