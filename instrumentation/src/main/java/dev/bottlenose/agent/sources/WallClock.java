package dev.bottlenose.agent.sources;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * The target's wall clock written into the agent's recording once a second, so a reader can put JFR's times on the
 * wall clock. JFR stamps events with the processor's time-stamp counter and turns ticks into times with a frequency
 * it measured when the JVM started; on a virtual machine that measure can be off, and the error grows until the
 * chunk ends (measured on a 2-vCPU VM: 2.3 ms slow each second, 110 ms behind the wall clock 48 s into a chunk, on
 * JDK 17 and 25). The daemon compares event times with moments of its own (a source counted from now, a class the
 * tool changed at a time), and without this would miss or add the events of the gap. Runs on JFR's periodic thread
 * while the recording runs: the agent starts no thread for it.
 */
public final class WallClock {
  /** The event's name in the recording, for the settings and for the reader. */
  private static final PeriodicEvent EVENT_AND_HOOK = new PeriodicEvent(Stamp.class, WallClock::tick);
  public static final String EVENT = "bottlenose.WallClock";
  /** Its field: {@link System#currentTimeMillis()} when it was committed. */
  public static final String MILLIS = "wallMillis";


  private WallClock() {}

  /** One reading of the wall clock. */
  @Name(EVENT)
  @Label("Wall Clock")
  @Category({"Bottlenose"})
  @Description("The JVM's wall clock when the event was committed, to put JFR's times on it")
  @StackTrace(false)
  @Enabled(false)
  @Period("1 s")
  public static final class Stamp extends Event {
    @Label("Wall Clock")
    @Description("System.currentTimeMillis() at commit")
    long wallMillis;
  }

  /** Makes the event known to JFR with its hook; idempotent, never throws (false: JFR refused it). */
  public static boolean register() {
    return EVENT_AND_HOOK.register();
  }

  /** Removes the hook and the event from JFR (the agent is leaving); never throws. */
  public static void unregister() {
    EVENT_AND_HOOK.unregister();
  }

  private static void tick() {
    try {
      Stamp s = new Stamp();
      s.wallMillis = System.currentTimeMillis();
      s.commit();
    } catch (RuntimeException e) {
      // never into JFR's thread
    }
  }
}
