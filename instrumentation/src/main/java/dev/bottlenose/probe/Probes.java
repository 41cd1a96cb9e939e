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
 * <p>Each slot has a count, a nanos and an extra cell in every stripe. A thread adds to the stripe
 * chosen by its id. The first thread to add to a stripe owns it for good and adds with a plain
 * read and write (about 1 ns); a thread whose stripe is owned by another adds atomically ({@code lock
 * xadd} on x86, 6-8 ns) to a second set of shared stripes. Totals are therefore exact under
 * concurrency, and the common case, a few long-lived threads running the hot code, is cheap. Slots
 * are handed out and reset by the probe manager, not here.
 */
public final class Probes {
  public static final int SLOTS = 4096;
  static final int STRIPES = 8;
  /** Stripes 0..STRIPES-1 are owned by one thread each; STRIPES..2*STRIPES-1 are shared, atomic. */
  private static final int ALL_STRIPES = 2 * STRIPES;
  private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final int COUNT = 0;
  private static final int NANOS = 1;
  private static final int EXTRA = 2;
  private static final int CELLS_PER_SLOT = 4;
  /** Per stripe, per slot: count, nanos, extra and one pad cell, so one slot's cells share a cache line. */
  private static final long[] VALUES = new long[ALL_STRIPES * SLOTS * CELLS_PER_SLOT];
  /** The id of the thread that owns each owned stripe, 0 while none does. */
  private static final long[] OWNERS = new long[STRIPES];
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
      add(slot, COUNT, 1L);
    } catch (Throwable t) {
      suppress();
    }
  }

  /** One more timed execution of {@code slot} that started at {@code start}. */
  public static void time(int slot, long start) {
    try {
      long elapsed = System.nanoTime() - start;
      add(slot, NANOS, elapsed);
      add(slot, COUNT, 1L);
    } catch (Throwable t) {
      suppress();
    }
  }

  /** An exit of an exclusive timer: elapsed since {@code start} minus {@code excluded} spent in {@code calls} calls. */
  public static void exclusive(int slot, long start, long excluded, int calls) {
    try {
      long own = System.nanoTime() - start - excluded;
      add(slot, NANOS, own);
      add(slot, COUNT, 1L);
      add(slot, EXTRA, calls);
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
      add(slot, COUNT, 1L);
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
      add(slot, COUNT, 1L);
      add(slot, EXTRA, Math.max(length, 0));
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
    for (int stripe = 0; stripe < ALL_STRIPES; stripe++) {
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

  /**
   * Gives up the calling thread's stripe if it owns one, so that another thread may own it; the
   * agent's own threads call it after running probes (calibration).
   */
  public static void releaseStripe() {
    long id = Thread.currentThread().getId();
    int stripe = (int) id & (STRIPES - 1);
    if (OWNERS[stripe] == id) {
      CELLS.setVolatile(OWNERS, stripe, 0L);
    }
  }

  /** Adds {@code delta} to cell {@code offset} of {@code slot} in the calling thread's stripe. */
  private static void add(int slot, int offset, long delta) {
    long id = Thread.currentThread().getId();
    int stripe = (int) id & (STRIPES - 1);
    if (OWNERS[stripe] == id || claim(stripe, id)) {
      int cell = (stripe * SLOTS + slot) * CELLS_PER_SLOT + offset;
      CELLS.setOpaque(VALUES, cell, (long) CELLS.getOpaque(VALUES, cell) + delta);
    } else {
      int cell = ((STRIPES + stripe) * SLOTS + slot) * CELLS_PER_SLOT + offset;
      CELLS.getAndAdd(VALUES, cell, delta);
    }
  }

  /** Makes the thread {@code id} the owner of {@code stripe} if nobody owns it yet. */
  private static boolean claim(int stripe, long id) {
    return (long) CELLS.getVolatile(OWNERS, stripe) == 0L && CELLS.compareAndSet(OWNERS, stripe, 0L, id);
  }

  private static long sum(int slot, int offset) {
    long total = 0;
    for (int stripe = 0; stripe < ALL_STRIPES; stripe++) {
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
