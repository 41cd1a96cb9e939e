package dev.bottlenose.agent;

import dev.bottlenose.instrumentation.TimedRounds;

/**
 * What two basic operations cost on this JVM, measured once at agent start on {@code bottlenose-start}:
 * a megamorphic interface call (a call site that has seen four receiver classes, so the JIT can neither
 * inline it nor devirtualise it) and the allocation of a small object that escapes into an array. Short
 * loops of each run in rounds, with a pause of {@value #PAUSE_MILLIS} ms between rounds, for at least
 * {@value #MIN_WALL_MILLIS} ms and until the fastest round has not improved for {@value #STABLE_ROUNDS}
 * rounds (at most {@value #MAX_WALL_MILLIS} ms, {@value #MAX_REPETITIONS} rounds, {@value #BUDGET_NANOS} ns
 * of this thread's CPU); each figure is the fastest round's time per operation, rounded to the nanosecond.
 * The fastest, because a round is only ever slowed (interpreted, or waiting for its compilation): an agent
 * attaches while the compiler threads are busy recompiling what starting JFR threw away, and the first
 * rounds of a loaded machine ran interpreted for 8 to 10 ns per call where compiled code takes 3. The
 * rounds are run by {@link TimedRounds}, as the probe runtime's own calibration's are.
 */
record Calibration(long virtualCallNanos, long allocationNanos) {
  static final int MAX_REPETITIONS = 60;
  static final int STABLE_ROUNDS = 10;
  static final long BUDGET_NANOS = 40_000_000;
  static final long PAUSE_MILLIS = 5;
  static final long MIN_WALL_MILLIS = 150;
  static final long MAX_WALL_MILLIS = 600;
  static final int CALLS = 20_000;
  static final int ALLOCATIONS = 10_000;
  private static final TimedRounds ROUNDS =
      new TimedRounds(MIN_WALL_MILLIS, MAX_WALL_MILLIS, STABLE_ROUNDS, BUDGET_NANOS, MAX_REPETITIONS, PAUSE_MILLIS);
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
    double[] best = {Double.MAX_VALUE, Double.MAX_VALUE};
    ROUNDS.run(() -> {
      double call = perOperation(now(), calls(shapes), CALLS);
      double allocation = perOperation(now(), allocate(kept), ALLOCATIONS);
      boolean faster = TimedRounds.improves(call, best[0]) || TimedRounds.improves(allocation, best[1]);
      best[0] = Math.min(best[0], call);
      best[1] = Math.min(best[1], allocation);
      return faster;
    });
    return new Calibration(Math.max(1, Math.round(best[0])), Math.max(1, Math.round(best[1])));
  }

  /** The CPU time per operation: {@code start} is taken before the loop runs, {@code loopEnd} by the loop. */
  private static double perOperation(long start, long loopEnd, int operations) {
    return Math.max(0, loopEnd - start) / (double) operations;
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

  private static long now() {
    return TimedRounds.cpuNow();
  }
}
