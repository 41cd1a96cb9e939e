package dev.bottlenose.daemon.jfr;

import dev.bottlenose.agent.sources.WallClock;
import java.time.Instant;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Puts the times of the target's JFR events on the wall clock. JFR turns time-stamp-counter ticks into times at a
 * frequency measured when the JVM started, which can be off on a virtual machine (2.3 ms a second on the VM the
 * benchmarks run on, growing until the chunk ends); everything the daemon compares with an event's time is a
 * wall-clock moment (a source counted from the moment it was watched, a class changed by the tool at a time,
 * a thread's CPU time read now), so every event time the reader uses goes through {@link #millis}. The offset is the
 * one the agent's latest {@link WallClock} event showed (one a second); 0 before the first.
 */
public final class JfrClock {
  /** JFR's time of the latest wall-clock event minus the wall clock it carried, ms. */
  private volatile long offsetMillis;
  private volatile boolean seen;

  /** Takes the offset a {@link WallClock#EVENT} event shows. */
  void observe(RecordedEvent e) {
    if (e.hasField(WallClock.MILLIS)) {
      offsetMillis = e.getStartTime().toEpochMilli() - e.getLong(WallClock.MILLIS);
      seen = true;
    }
  }

  /** The wall-clock time of a time read off a JFR event, epoch ms. */
  public long millis(Instant jfrTime) {
    return jfrTime.toEpochMilli() - offsetMillis;
  }

  /** Whether a wall-clock event has told the offset yet. */
  public boolean known() {
    return seen;
  }

  /** How far JFR's times run ahead of the wall clock (negative: behind), ms; null before the first reading. */
  public Long offsetMillis() {
    return seen ? offsetMillis : null;
  }
}
