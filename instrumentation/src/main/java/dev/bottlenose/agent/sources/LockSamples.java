package dev.bottlenose.agent.sources;

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * Samples of the threads waiting for a lock, the cheap estimate of lock contention ({@code lock_sample}): once a
 * period, every platform thread of the program blocked entering a monitor, or parked on one of the JDK's locks
 * ({@link SourceEvent#isLockClass}: the same line {@code lock_park} draws), becomes one {@link Sample} standing for
 * the period, with the class of the object it waits for (the monitor's, the lock's), as {@code /SyncObjects} names
 * it. Nothing else is recorded: no stack, no event per park. Counting {@code monitor_enter} and {@code
 * lock_park} exactly records every park of the program to find the lock parks among them, on a server's idle pool
 * 13,000 a second, each one paid in the parking thread and again in the daemon that reads it.
 *
 * <p>It runs on JFR's own periodic thread, as JFR's Java periodic events do, and only while a source turns the
 * event on: the agent starts no thread for it. A sample costs a look at each thread's state (a field read) and,
 * for a waiting thread, at the object it parked on; the monitors the blocked threads wait for are asked of the VM
 * in one call ({@link ThreadMXBean#getThreadInfo(long[], int)} without stacks: no safepoint, no stack walk)
 * ({@code tests/bench-lock-sample-cost.sh}). Made known to JFR when a source first asks for it
 * ({@link #register}) and taken out of JFR when the agent's recording stops ({@link #unregister}).
 */
public final class LockSamples {
  /** The event's name in the recording, for the settings and for the daemon that counts it. */
  private static final PeriodicEvent EVENT_AND_HOOK = new PeriodicEvent(Sample.class, LockSamples::sample);
  public static final String EVENT = "bottlenose.LockSample";

  /** The period the sources ask for, ns: what a sample stands for when the one before is not known. */
  static volatile long periodNanos = 20_000_000;
  private static Thread[] threads = new Thread[64];
  private static Thread[] blocked = new Thread[16];
  private static ThreadMXBean mx;
  private static long lastNanos;

  private LockSamples() {}

  /** One thread waiting for a lock at one period's sample. */
  @Name(EVENT)
  @Label("Lock Sample")
  @Category({"Bottlenose"})
  @Description("A thread blocked entering a monitor or parked on a lock when sampled, standing for one period")
  @StackTrace(false)
  @Enabled(false)
  @Period("20 ms")
  public static final class Sample extends Event {
    @Label("Sampled Thread")
    Thread sampledThread;

    @Label("Monitor")
    @Description("True: blocked entering a monitor; false: parked on a lock")
    boolean monitor;

    @Label("Lock Class")
    @Description("The class of the monitor or lock waited for, as /SyncObjects names it; null when not known")
    String lockClass;

    @Label("Period")
    @Timespan(Timespan.NANOSECONDS)
    long period;
  }

  /** Makes the event known to JFR with its hook; idempotent, never throws (false: JFR refused it). */
  public static boolean register() {
    return EVENT_AND_HOOK.register();
  }

  /** Removes the sampler and the event from JFR (the agent is leaving); never throws. */
  public static void unregister() {
    EVENT_AND_HOOK.unregister();
  }


  /**
   * One sample of every platform thread, on JFR's periodic thread while the event is on. Each sample stands for the
   * time since the one before, at most twice the event's period (a sampler that ran late does not make a wait
   * longer than it was), the period itself for the first.
   */
  private static void sample() {
    try {
      long now = System.nanoTime();
      long configured = Math.max(1, periodNanos);
      long since = lastNanos == 0 ? configured : now - lastNanos;
      lastNanos = now;
      long weight = since <= 0 || since > 2 * configured ? configured : since;
      int n = enumerate();
      int b = 0;
      for (int i = 0; i < n; i++) {
        Thread t = threads[i];
        threads[i] = null;
        if (t == null || ToolCode.isToolThread(t.getName())) {
          continue;
        }
        Thread.State state = t.getState();
        if (state == Thread.State.BLOCKED) {
          if (b == blocked.length) {
            blocked = Arrays.copyOf(blocked, b * 2);
          }
          blocked[b++] = t;
        } else if (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING) {
          Object blocker = LockSupport.getBlocker(t);
          if (blocker != null && SourceEvent.isLockClass(blocker.getClass().getName())) {
            commit(t, false, blocker.getClass().getName(), weight);
          }
        }
      }
      commitBlocked(b, weight);
    } catch (RuntimeException | Error e) {
      // never into JFR's thread: the sample is lost
    }
  }

  /**
   * The {@code count} threads of {@link #blocked}, each with the class of the monitor it waits to enter: one call into
   * the VM for all of them. A thread that has moved on since it was seen blocked, or a VM that does not say, gives a
   * sample without a class.
   */
  private static void commitBlocked(int count, long weight) {
    if (count == 0) {
      return;
    }
    long[] ids = new long[count];
    for (int i = 0; i < count; i++) {
      ids[i] = blocked[i].getId();
    }
    ThreadInfo[] infos = null;
    try {
      if (mx == null) {
        mx = ManagementFactory.getThreadMXBean();
      }
      infos = mx.getThreadInfo(ids, 0);
    } catch (RuntimeException | Error e) {
      // no class this time
    }
    for (int i = 0; i < count; i++) {
      ThreadInfo info = infos == null ? null : infos[i];
      LockInfo lock = info == null || info.getThreadState() != Thread.State.BLOCKED ? null : info.getLockInfo();
      commit(blocked[i], true, lock == null ? null : lock.getClassName(), weight);
      blocked[i] = null;
    }
  }

  private static void commit(Thread t, boolean monitor, String lockClass, long weight) {
    Sample s = new Sample();
    s.sampledThread = t;
    s.monitor = monitor;
    s.lockClass = lockClass;
    s.period = weight;
    s.commit();
  }

  /** Every live platform thread into {@link #threads}; how many. */
  private static int enumerate() {
    ThreadGroup root = Thread.currentThread().getThreadGroup();
    while (root.getParent() != null) {
      root = root.getParent();
    }
    int n = root.enumerate(threads, true);
    while (n == threads.length) {
      threads = new Thread[threads.length * 2];
      n = root.enumerate(threads, true);
    }
    return n;
  }
}
