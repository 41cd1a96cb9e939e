package dev.bottlenose.probe;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.ToLongFunction;

/**
 * The probe runtime: static entry points that woven code calls, and fixed-capacity counters behind
 * them. Lives on the bootstrap class path so that probes in JDK classes can reach it; therefore it
 * refers to {@code java.*} classes only. Entry points take primitives, allocate nothing (except one
 * depth array per thread that runs a guarded recursive timer), take no lock and never throw.
 *
 * <p>Each slot has a count, a nanos and an extra cell in every stripe; a thread adds to the stripe
 * chosen by its id, atomically, so totals are exact under concurrency. Slots are handed out and
 * reset by the probe manager, not here.
 */
public final class Probes {
  public static final int SLOTS = 4096;
  static final int STRIPES = 8;
  private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final long[] COUNTS = new long[SLOTS * STRIPES];
  private static final long[] NANOS = new long[SLOTS * STRIPES];
  private static final long[] EXTRA = new long[SLOTS * STRIPES];
  private static final long[] SIZES = new long[SLOTS];
  private static final long[] SUPPRESSED = new long[1];
  private static final ThreadLocal<int[]> DEPTH = new ThreadLocal<>();

  /** Shallow size of an object, set by the manager; asked once per allocation site. */
  public static volatile ToLongFunction<Object> sizer;

  /** Now, in nanoseconds; woven code calls this rather than {@code System.nanoTime()}. */
  public static long now() {
    return System.nanoTime();
  }

  /** One more execution of {@code slot}. */
  public static void count(int slot) {
    try {
      add(COUNTS, slot, 1);
    } catch (Throwable t) {
      suppress();
    }
  }

  /** One more timed execution of {@code slot} that started at {@code start}. */
  public static void time(int slot, long start) {
    try {
      add(NANOS, slot, System.nanoTime() - start);
      add(COUNTS, slot, 1);
    } catch (Throwable t) {
      suppress();
    }
  }

  /** An exit of an exclusive timer: elapsed since {@code start} minus {@code excluded} spent in {@code calls} calls. */
  public static void exclusive(int slot, long start, long excluded, int calls) {
    try {
      add(NANOS, slot, System.nanoTime() - start - excluded);
      add(COUNTS, slot, 1);
      add(EXTRA, slot, calls);
    } catch (Throwable t) {
      suppress();
    }
  }

  /** Entry into a directly recursive timed method: one level deeper on this thread. */
  public static void enter(int slot) {
    try {
      depths()[slot]++;
    } catch (Throwable t) {
      suppress();
    }
  }

  /** Exit from a directly recursive timed method: records only when the outermost activation exits. */
  public static void exit(int slot, long start) {
    try {
      int[] depth = depths();
      if (depth[slot] > 0 && --depth[slot] == 0) {
        time(slot, start);
      }
    } catch (Throwable t) {
      suppress();
    }
  }

  /** An object created at the allocation site {@code slot}; its shallow size is learnt once. */
  public static void allocated(Object created, int slot) {
    try {
      add(COUNTS, slot, 1);
      if (SIZES[slot] == 0) {
        learnSize(created, slot);
      }
    } catch (Throwable t) {
      suppress();
    }
  }

  /** An array of {@code length} elements created at the allocation site {@code slot}. */
  public static void allocatedArray(int length, int slot) {
    try {
      add(COUNTS, slot, 1);
      add(EXTRA, slot, Math.max(length, 0));
    } catch (Throwable t) {
      suppress();
    }
  }

  public static long readCount(int slot) {
    return sum(COUNTS, slot);
  }

  public static long readNanos(int slot) {
    return sum(NANOS, slot);
  }

  public static long readExtra(int slot) {
    return sum(EXTRA, slot);
  }

  /** The shallow size learnt at allocation site {@code slot}, 0 when not known (yet). */
  public static long readSize(int slot) {
    return Math.max(SIZES[slot], 0);
  }

  /** Zeroes every cell of {@code slot}; the manager calls it when it hands the slot out. */
  public static void reset(int slot) {
    for (int stripe = 0; stripe < STRIPES; stripe++) {
      int cell = stripe * SLOTS + slot;
      CELLS.setVolatile(COUNTS, cell, 0L);
      CELLS.setVolatile(NANOS, cell, 0L);
      CELLS.setVolatile(EXTRA, cell, 0L);
    }
    SIZES[slot] = 0;
  }

  /** Throwables caught inside probes since the JVM started. */
  public static long suppressed() {
    return (long) CELLS.getVolatile(SUPPRESSED, 0);
  }

  private static void learnSize(Object created, int slot) {
    ToLongFunction<Object> s = sizer;
    if (s != null) {
      SIZES[slot] = -1;
      SIZES[slot] = s.applyAsLong(created);
    }
  }

  private static int[] depths() {
    int[] depth = DEPTH.get();
    if (depth == null) {
      depth = new int[SLOTS];
      DEPTH.set(depth);
    }
    return depth;
  }

  private static void add(long[] cells, int slot, long delta) {
    int stripe = (int) Thread.currentThread().getId() & (STRIPES - 1);
    CELLS.getAndAdd(cells, stripe * SLOTS + slot, delta);
  }

  private static long sum(long[] cells, int slot) {
    long total = 0;
    for (int stripe = 0; stripe < STRIPES; stripe++) {
      total += (long) CELLS.getVolatile(cells, stripe * SLOTS + slot);
    }
    return total;
  }

  private static void suppress() {
    try {
      CELLS.getAndAdd(SUPPRESSED, 0, 1L);
    } catch (Throwable ignored) {
      // nothing left to do without risking a throw into the application
    }
  }

  private Probes() {}
}
