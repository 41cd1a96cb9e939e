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
 * chosen by its id, atomically ({@code lock xadd} on x86), so totals are exact under concurrency
 * while threads rarely share a cache line. Slots are handed out and
 * reset by the probe manager, not here.
 */
public final class Probes {
  public static final int SLOTS = 4096;
  static final int STRIPES = 8;
  private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final int COUNT = 0;
  private static final int NANOS = 1;
  private static final int EXTRA = 2;
  private static final int CELLS_PER_SLOT = 4;
  /** Per stripe, per slot: count, nanos, extra and one pad cell, so one slot's cells share a cache line. */
  private static final long[] VALUES = new long[STRIPES * SLOTS * CELLS_PER_SLOT];
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
      CELLS.getAndAdd(VALUES, cell(slot) + COUNT, 1L);
    } catch (Throwable t) {
      suppress();
    }
  }

  /** One more timed execution of {@code slot} that started at {@code start}. */
  public static void time(int slot, long start) {
    try {
      long elapsed = System.nanoTime() - start;
      int cell = cell(slot);
      CELLS.getAndAdd(VALUES, cell + NANOS, elapsed);
      CELLS.getAndAdd(VALUES, cell + COUNT, 1L);
    } catch (Throwable t) {
      suppress();
    }
  }

  /** An exit of an exclusive timer: elapsed since {@code start} minus {@code excluded} spent in {@code calls} calls. */
  public static void exclusive(int slot, long start, long excluded, int calls) {
    try {
      long own = System.nanoTime() - start - excluded;
      int cell = cell(slot);
      CELLS.getAndAdd(VALUES, cell + NANOS, own);
      CELLS.getAndAdd(VALUES, cell + COUNT, 1L);
      CELLS.getAndAdd(VALUES, cell + EXTRA, (long) calls);
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
      CELLS.getAndAdd(VALUES, cell(slot) + COUNT, 1L);
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
      int cell = cell(slot);
      CELLS.getAndAdd(VALUES, cell + COUNT, 1L);
      CELLS.getAndAdd(VALUES, cell + EXTRA, (long) Math.max(length, 0));
    } catch (Throwable t) {
      suppress();
    }
  }

  public static long readCount(int slot) {
    return sum(slot, COUNT);
  }

  public static long readNanos(int slot) {
    return sum(slot, NANOS);
  }

  public static long readExtra(int slot) {
    return sum(slot, EXTRA);
  }

  /** The shallow size learnt at allocation site {@code slot}, 0 when not known (yet). */
  public static long readSize(int slot) {
    return Math.max(SIZES[slot], 0);
  }

  /** Zeroes every cell of {@code slot}; the manager calls it when it hands the slot out. */
  public static void reset(int slot) {
    for (int stripe = 0; stripe < STRIPES; stripe++) {
      int cell = (stripe * SLOTS + slot) * CELLS_PER_SLOT;
      for (int i = 0; i < CELLS_PER_SLOT; i++) {
        CELLS.setVolatile(VALUES, cell + i, 0L);
      }
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

  /** The first cell of {@code slot} in the calling thread's stripe. */
  private static int cell(int slot) {
    int stripe = (int) Thread.currentThread().getId() & (STRIPES - 1);
    return (stripe * SLOTS + slot) * CELLS_PER_SLOT;
  }

  private static long sum(int slot, int offset) {
    long total = 0;
    for (int stripe = 0; stripe < STRIPES; stripe++) {
      total += (long) CELLS.getVolatile(VALUES, (stripe * SLOTS + slot) * CELLS_PER_SLOT + offset);
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
