package dev.bottlenose.daemon.jfr;

import dev.bottlenose.model.CodePaths;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;

/**
 * The classes a probe must not go into now: those with a method that looks like one long activation on a
 * running thread. HotSpot never compiles a method version that a retransformation replaced ("COMPILE SKIPPED:
 * redefined method"), whether its bytecode changed or not, so an activation of any method of a retransformed
 * class goes on in the interpreter until it returns. A request handler returns within milliseconds and is
 * compiled again at its next call; a loop that never returns (a batch job's main loop, a worker's run loop)
 * stays five to ten times slower for the rest of the run, probes removed or not.
 *
 * <p>A sample does not tell activations apart, so a method that was on a thread's stack in every execution
 * sample of that thread for {@link #MIN_MILLIS} and at least {@link #MIN_SAMPLES} samples, while the thread ran
 * at least {@link #MIN_RUNNING} of that time (its CPU time from {@code /proc}), is taken for one activation.
 * Samples see a thread only while it runs, so without the CPU time a worker blocked between short calls would
 * look the same. Short calls made back to back on a busy thread still do; their class is then left alone
 * needlessly, which costs the measurement only those methods' own events. A thread whose CPU time has stood
 * still for {@link #IDLE_MILLIS} does not count: it is blocked, and an interpreted activation that does not run
 * costs nothing. Its samples cannot tell that, as they stop when it blocks: a main thread that ran a method
 * for seconds and then waits for its next command would seem to run that method until {@link #STALE_MILLIS}.
 * So the CPU time of a thread that could count is read at each flush too, sampled or not. A thread not sampled for
 * {@link #STALE_MILLIS} (ended, or its CPU time unknown) does not count either; one whose CPU time advances
 * without samples counts until then, as JFR samples only a few threads per period and a running one may go
 * unsampled. A truncated stack says nothing about the frames below its cut, so they are kept. Of each thread's
 * samples one per {@link #EVERY_MILLIS} is looked at: the daemon's reader keeps up with the target's recording
 * (javac's deep stacks, every sample looked at, left the search's data 20 s behind).
 */
public final class LongRunningFrames {
  static final long MIN_MILLIS = 2_000;
  static final int MIN_SAMPLES = 10;
  static final long EVERY_MILLIS = 100;
  static final double MIN_RUNNING = 0.25;
  static final long STALE_MILLIS = 30_000;
  /** How often a thread's CPU time is read while it is sampled, or could count ({@link #flushed}). */
  static final long CPU_READ_MILLIS = 1_000;
  /**
   * How long a thread's CPU time must have stood still before the thread no longer counts: two periods of
   * {@link #CPU_READ_MILLIS}, from the first reading that saw that CPU time, which comes at most one period after
   * the thread stopped while the reader keeps up with JFR's flushes; so a blocked thread is free within about
   * three seconds, not {@link #STALE_MILLIS}. Not one period: a loop that really runs stands still only in a pause
   * longer than a collection's or a busy scheduler's (milliseconds to hundreds of them), and a running loop
   * mistaken for a blocked one goes on in the interpreter for the rest of the run, while a class held busy a
   * second longer only makes a probe wait. It is also how long a method must be seen running before it counts
   * ({@link #MIN_MILLIS}).
   */
  static final long IDLE_MILLIS = 2 * CPU_READ_MILLIS;
  /**
   * How far before a flush's {@code jdk.Flush} event the events it delivered are known to be complete: a sample
   * taken while the flush was being written may come with the next one.
   */
  static final long FLUSH_LAG_MILLIS = 200;
  /** How long the stream must have delivered no sample at all before the target counts as running no Java code. */
  static final long NO_SAMPLES_MILLIS = 4_000;
  /**
   * How far past the first sample the stream must reach before {@link #runningIn} can answer: {@link #MIN_MILLIS}
   * and two of the periods at which a thread's samples are looked at, as the first and the last sample of a thread
   * that ran all along may each fall up to one such period inside the span the stream covers.
   */
  static final long COVER_MILLIS = MIN_MILLIS + 2 * EVERY_MILLIS;
  /**
   * How long to wait at most, from the start of watching: the stream does not flush at all. A daemon JVM that
   * has just started on a busy machine may take several seconds to read its first chunk.
   */
  static final long GIVE_UP_MILLIS = 15_000;
  private static final int MAX_READINGS = 120;
  private static final int MAX_THREADS = 4_096;

  /** A method's {@code /Code} path and its class's. */
  private record Frame(String classPath, String method) {}

  private static final class OnThread {
    final String name;
    final long tid;
    final Map<Frame, long[]> since = new HashMap<>(); // frame -> {first sample's millis, samples since}
    final ArrayDeque<long[]> cpu = new ArrayDeque<>(); // {wall millis, CPU nanos}, oldest first
    long lastMillis = Long.MIN_VALUE / 2;
    /** The CPU time last read, and when it was first read: the thread has not run since. */
    long lastCpu = Long.MIN_VALUE;
    long stillSinceMillis;
    /** Whether a frame has been on its stack long enough and in enough samples to count. */
    boolean mayCount;

    OnThread(String name, long tid) {
      this.name = name;
      this.tid = tid;
    }
  }

  private final Map<Long, OnThread> threads = new HashMap<>();
  private final LongUnaryOperator cpuOfTid;
  /** The wall clock in milliseconds: when CPU times are read, and when the wait for evidence gives up. */
  private final LongSupplier clock;
  private final long watchedFromMillis;
  private long firstMillis;
  private long deliveredThroughMillis;
  private long latestMillis;
  /** Set once the stream is closed: nothing more will come, so nobody waits. */
  private boolean stopped;
  /** Sampling rounds seen: samples of any thread at least {@link #EVERY_MILLIS} apart. */
  private int rounds;
  private long lastRoundMillis = Long.MIN_VALUE / 2;

  /**
   * Watching from now: what ran before is not known, so {@link #awaitEvidence} first waits for samples.
   * {@code cpuOfTid}: a thread's CPU time in nanoseconds by its OS id, -1 where it cannot be read (then a
   * method on every sample counts whether the thread ran or not).
   */
  public LongRunningFrames(LongUnaryOperator cpuOfTid) {
    this(cpuOfTid, System.currentTimeMillis());
  }

  LongRunningFrames(LongUnaryOperator cpuOfTid, long watchedFromMillis) {
    this(cpuOfTid, watchedFromMillis, System::currentTimeMillis);
  }

  /** As {@link #LongRunningFrames(LongUnaryOperator, long)}, on {@code clock} rather than the system's. */
  LongRunningFrames(LongUnaryOperator cpuOfTid, long watchedFromMillis, LongSupplier clock) {
    this.cpuOfTid = cpuOfTid;
    this.clock = clock;
    this.watchedFromMillis = watchedFromMillis;
  }

  /**
   * Returns once {@link #runningIn} can tell a method that has been running since before the attach from one
   * called a moment ago: the samples seen reach {@link #COVER_MILLIS} past the first in at least
   * {@link #MIN_SAMPLES} rounds and two more; or the stream has delivered through twice {@link #MIN_MILLIS}
   * past the first sample (samples are sparse: few threads run Java code); or it has delivered
   * {@link #NO_SAMPLES_MILLIS} since watching began without any sample (no thread runs Java code; JFR may take a
   * second or two to start); or {@link #GIVE_UP_MILLIS} after that began; or the stream is closed. At once
   * after that. Every bound is
   * in the times the stream carries, not when the daemon read them: a daemon that reads behind a busy target
   * waits for what it has not read yet.
   */
  public synchronized void awaitEvidence() throws InterruptedException {
    long giveUp = watchedFromMillis + GIVE_UP_MILLIS;
    long now;
    while (!stopped && !covered() && (now = clock.getAsLong()) < giveUp) {
      wait(giveUp - now);
    }
  }

  /** The stream is closed (the session ends): whoever waits for evidence stops waiting. */
  public synchronized void stop() {
    stopped = true;
    notifyAll();
  }

  /**
   * JFR's stream has delivered a flush whose {@code jdk.Flush} event ended at {@code flushMillis}: the events it
   * delivered reach {@link #FLUSH_LAG_MILLIS} before.
   */
  public synchronized void flushed(long flushMillis) {
    deliveredThroughMillis = Math.max(deliveredThroughMillis, flushMillis - FLUSH_LAG_MILLIS);
    if (covered()) {
      notifyAll();
    }
    long wall = clock.getAsLong();
    for (OnThread t : threads.values()) {
      if (t.mayCount && latestMillis - t.lastMillis <= STALE_MILLIS
          && wall - t.cpu.peekLast()[0] >= CPU_READ_MILLIS) {
        record(t, wall);
      }
    }
  }

  /** Whether {@link #awaitEvidence} would return now, the time limit aside. */
  synchronized boolean covered() {
    if (firstMillis == 0) {
      return deliveredThroughMillis >= watchedFromMillis + NO_SAMPLES_MILLIS;
    }
    return latestMillis >= firstMillis + COVER_MILLIS && rounds >= MIN_SAMPLES + 2
        || deliveredThroughMillis >= firstMillis + 2 * MIN_MILLIS;
  }

  /**
   * One execution sample of thread {@code threadId} (OS id {@code tid}) at {@code atMillis}: per frame, top
   * first, its package, class and method {@code /Code} paths ({@link CallGraph#sampled}); and whether JFR cut
   * the stack.
   */
  public synchronized void sampled(long threadId, long tid, String threadName, long atMillis, List<String[]> frames,
      boolean truncated) {
    firstMillis = firstMillis == 0 ? atMillis : Math.min(firstMillis, atMillis);
    latestMillis = Math.max(latestMillis, atMillis);
    if (atMillis >= lastRoundMillis + EVERY_MILLIS) {
      lastRoundMillis = atMillis;
      rounds++;
    }
    if (covered()) {
      notifyAll();
    }
    if (threads.size() >= MAX_THREADS && !threads.containsKey(threadId)) {
      threads.values().removeIf(t -> latestMillis - t.lastMillis > STALE_MILLIS);
      if (threads.size() >= MAX_THREADS) {
        return;
      }
    }
    OnThread t = threads.computeIfAbsent(threadId, id -> new OnThread(threadName, tid));
    if (atMillis < t.lastMillis + EVERY_MILLIS) {
      return;
    }
    t.lastMillis = atMillis;
    long wall = clock.getAsLong();
    if (t.cpu.isEmpty() || wall - t.cpu.peekLast()[0] >= CPU_READ_MILLIS) {
      record(t, wall);
    }
    Set<Frame> now = new HashSet<>();
    for (String[] f : frames) {
      now.add(new Frame(f[1], f[2]));
    }
    if (!truncated) {
      t.since.keySet().retainAll(now);
    }
    for (Frame f : now) {
      t.since.computeIfAbsent(f, k -> new long[] {atMillis, 0})[1]++;
    }
    t.mayCount = false;
    for (long[] s : t.since.values()) {
      if (atMillis - s[0] >= MIN_MILLIS && s[1] >= MIN_SAMPLES) {
        t.mayCount = true;
        break;
      }
    }
  }

  /** Reads thread {@code t}'s CPU time at {@code wall} and keeps it among its readings. */
  private void record(OnThread t, long wall) {
    t.cpu.addLast(new long[] {wall, read(t, wall)});
    if (t.cpu.size() > MAX_READINGS) {
      t.cpu.removeFirst();
    }
  }

  /** Thread {@code t}'s CPU time at {@code wall}, -1 if unknown; from when it has stood still. */
  private long read(OnThread t, long wall) {
    long cpu = cpuOfTid.applyAsLong(t.tid);
    if (cpu != t.lastCpu) {
      t.lastCpu = cpu;
      t.stillSinceMillis = wall;
    }
    return cpu;
  }

  /**
   * Why {@code className} (binary name, {@code com.acme.Batch$Step}) must not be retransformed now: its
   * method with the longest activation, the thread and for how long; null when none of its methods looks
   * like a long activation.
   */
  public synchronized String runningIn(String className) {
    String classPath = CodePaths.ofClass(className).toString();
    String why = null;
    long longest = -1;
    long now = clock.getAsLong();
    for (OnThread t : threads.values()) {
      if (latestMillis - t.lastMillis > STALE_MILLIS) {
        continue;
      }
      long cpu = -1;
      boolean cpuRead = false;
      for (Map.Entry<Frame, long[]> e : t.since.entrySet()) {
        long age = t.lastMillis - e.getValue()[0];
        if (!e.getKey().classPath().equals(classPath) || age < MIN_MILLIS || e.getValue()[1] < MIN_SAMPLES
            || age <= longest) {
          continue;
        }
        if (!cpuRead) {
          cpu = read(t, now);
          cpuRead = true;
          if (cpu >= 0 && now - t.stillSinceMillis >= IDLE_MILLIS) {
            break; // blocked
          }
        }
        if (ranEnough(t, e.getValue()[0], cpu, now)) {
          longest = age;
          why = e.getKey().method() + " has been on the stack of thread '" + t.name
              + "' in each of its " + e.getValue()[1] + " execution samples for " + Math.round(age / 1000.0)
              + " s";
        }
      }
    }
    return why;
  }

  /**
   * Whether thread {@code t} was running at least {@link #MIN_RUNNING} of the time since {@code sinceMillis}:
   * its CPU time from the first reading after then to {@code cpu} at {@code now}. True when it cannot be told.
   */
  private boolean ranEnough(OnThread t, long sinceMillis, long cpu, long now) {
    long[] from = null;
    for (long[] r : t.cpu) {
      if (r[0] >= sinceMillis && r[1] >= 0) {
        from = r;
        break;
      }
    }
    if (from == null || cpu < 0 || now - from[0] < CPU_READ_MILLIS) {
      return true;
    }
    return (cpu - from[1]) / 1e6 >= MIN_RUNNING * (now - from[0]);
  }
}
