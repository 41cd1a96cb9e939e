package dev.bottlenose.agent;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * What two basic operations cost on this JVM, measured once at agent start on {@code bottlenose-start}:
 * a megamorphic interface call (a call site that has seen four receiver classes, so the JIT can neither
 * inline it nor devirtualise it) and the allocation of a small object that escapes into an array. Short
 * loops of each run in turn for about {@value #BUDGET_NANOS} ns of this thread's CPU time (at most
 * {@value #MAX_REPETITIONS} rounds, at least {@value #MEDIAN_OF}), so the JIT has compiled them by the end;
 * each figure is the median per operation of the last {@value #MEDIAN_OF} rounds, so neither the first,
 * interpreted rounds nor a stray pause decide it.
 */
record Calibration(long virtualCallNanos, long allocationNanos) {
  static final int MAX_REPETITIONS = 60;
  static final int MEDIAN_OF = 5;
  static final long BUDGET_NANOS = 15_000_000;
  static final int CALLS = 20_000;
  static final int ALLOCATIONS = 10_000;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static volatile long sink;

  interface Shape {
    int size();
  }

  record A(int v) implements Shape {
    public int size() {
      return v;
    }
  }

  record B(int v) implements Shape {
    public int size() {
      return v + 1;
    }
  }

  record C(int v) implements Shape {
    public int size() {
      return v * 2;
    }
  }

  record D(int v) implements Shape {
    public int size() {
      return v - 1;
    }
  }

  static Calibration measure() {
    Shape[] shapes = {new A(1), new B(2), new C(3), new D(4)};
    Object[] kept = new Object[1024];
    long[] calls = new long[MAX_REPETITIONS];
    long[] allocations = new long[MAX_REPETITIONS];
    long deadline = now() + BUDGET_NANOS;
    int r = 0;
    while (r < MAX_REPETITIONS && (r < MEDIAN_OF || now() < deadline)) {
      calls[r] = perOperation(now(), calls(shapes), CALLS);
      allocations[r] = perOperation(now(), allocate(kept), ALLOCATIONS);
      r++;
    }
    return new Calibration(medianOfLast(calls, r), medianOfLast(allocations, r));
  }

  /** The CPU time per operation: {@code start} is taken before the loop runs, {@code loopEnd} by the loop. */
  private static long perOperation(long start, long loopEnd, int operations) {
    return Math.max(0, (loopEnd - start) / operations);
  }

  private static long calls(Shape[] shapes) {
    long sum = 0;
    for (int i = 0; i < CALLS; i++) {
      sum += shapes[i & 3].size();
    }
    sink = sum;
    return now();
  }

  private static long allocate(Object[] kept) {
    for (int i = 0; i < ALLOCATIONS; i++) {
      kept[i & 1023] = new int[] {i};
    }
    sink = kept.length;
    return now();
  }

  /** The median of the last {@value #MEDIAN_OF} of the first {@code n} values. */
  /** This thread's CPU time, so that time the compiler threads or anyone else take from it is not counted. */
  private static long now() {
    return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
  }

  private static long medianOfLast(long[] values, int n) {
    long[] last = Arrays.copyOfRange(values, n - MEDIAN_OF, n);
    Arrays.sort(last);
    return last[MEDIAN_OF / 2];
  }
}
