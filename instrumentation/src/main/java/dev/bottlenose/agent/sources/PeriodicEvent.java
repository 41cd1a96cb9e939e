package dev.bottlenose.agent.sources;

import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;

/**
 * One of the agent's own JFR events with the hook JFR's periodic thread runs for it ({@link LockSamples},
 * {@link WallClock}): made known to JFR on demand and taken out again when the agent's recording stops.
 */
final class PeriodicEvent {
  private final Class<? extends Event> type;
  private final Runnable hook;
  private boolean registered;

  PeriodicEvent(Class<? extends Event> type, Runnable hook) {
    this.type = type;
    this.hook = hook;
  }

  /** Makes the event known to JFR with its hook; idempotent, never throws (false: JFR refused it). */
  synchronized boolean register() {
    if (registered) {
      return true;
    }
    try {
      FlightRecorder.addPeriodicEvent(type, hook);
      registered = true;
      return true;
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  /** Removes the hook and the event from JFR; never throws. */
  synchronized void unregister() {
    if (!registered) {
      return;
    }
    registered = false;
    try {
      FlightRecorder.removePeriodicEvent(hook);
      FlightRecorder.unregister(type);
    } catch (RuntimeException | LinkageError e) {
      // JFR is shutting down with the JVM
    }
  }
}
