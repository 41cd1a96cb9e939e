package dev.bottlenose.agent;

import java.util.Arrays;

/**
 * What two basic operations cost on this JVM, measured once at agent start on {@code bottlenose-start}:
 * a megamorphic interface call (a call site that has seen four receiver classes, so the JIT can neither
 * inline it nor devirtualise it) and the allocation of a small object that escapes into an array. Each is
 * timed over {@value #REPETITIONS} short loops and reported as the median per operation, so the first,
 * interpreted loops and a stray pause do not decide it. Takes a few milliseconds of CPU when compiled,
 * about 20 ms under {@code -Xint}.
 */
record Calibration(long virtualCallNanos, long allocationNanos) {
  static final int REPETITIONS = 9;
  static final int CALLS = 40_000;
  static final int ALLOCATIONS = 20_000;
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
    long[] calls = new long[REPETITIONS];
    long[] allocations = new long[REPETITIONS];
    Object[] kept = new Object[1024];
    for (int r = 0; r < REPETITIONS; r++) {
      calls[r] = perOperation(System.nanoTime(), calls(shapes), CALLS);
      allocations[r] = perOperation(System.nanoTime(), allocate(kept), ALLOCATIONS);
    }
    return new Calibration(median(calls), median(allocations));
  }

  /** Picks the elapsed time out of the operation's result (start passed in, end taken after the loop). */
  private static long perOperation(long start, long loopEnd, int operations) {
    return Math.max(0, (loopEnd - start) / operations);
  }

  private static long calls(Shape[] shapes) {
    long sum = 0;
    for (int i = 0; i < CALLS; i++) {
      sum += shapes[i & 3].size();
    }
    sink = sum;
    return System.nanoTime();
  }

  private static long allocate(Object[] kept) {
    for (int i = 0; i < ALLOCATIONS; i++) {
      kept[i & 1023] = new int[] {i};
    }
    sink = kept.length;
    return System.nanoTime();
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
