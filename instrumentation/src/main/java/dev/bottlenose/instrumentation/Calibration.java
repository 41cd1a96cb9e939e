package dev.bottlenose.instrumentation;

import dev.bottlenose.probe.Probes;

/**
 * What one probe execution costs on this machine: short timed loops over the runtime's own entry
 * points, a counter ({@code count}) and a timer ({@code now} + {@code time}), run in rounds with a
 * pause of {@value #PAUSE_MILLIS} ms between them so that the compiler threads can compile the loops,
 * for at least {@value #MIN_WALL_MILLIS} ms and until the fastest round has not improved for
 * {@value #STABLE_ROUNDS} rounds (at most {@value #MAX_WALL_MILLIS} ms, {@value #BUDGET_NANOS} ns of
 * this thread's CPU). Each figure is the fastest round's CPU time per execution: probes in hot code
 * run compiled, and a round is only ever slowed (interpreted, or preempted). The first round of a
 * counter runs interpreted at 15-20 ns where compiled code takes 1-3 ns, and hot code's counters,
 * charged at that, looked ten times dearer than they are. The rounds are run by {@link TimedRounds}.
 *
 * <p>On a loaded machine the compiler may not get to the loops within that time (the target's own
 * compilation queue is long just after an attach), and rounds that all ran interpreted agree with each
 * other. So the manager {@linkplain #refined refines} the figures with one more round at each cost
 * report, up to {@value #MAX_ROUNDS} rounds in all (a few minutes at one report a second); a round
 * costs about 0.2 ms of CPU once compiled.
 *
 * <p>The measuring thread usually owns its stripe while it measures, as an application's hot
 * threads do, and gives it up afterwards.
 */
record Calibration(double counterNanos, double timerNanos, int rounds, int unchanged) {
  static final int STABLE_ROUNDS = 10;
  static final int MAX_ROUNDS = 200;
  static final long BUDGET_NANOS = 40_000_000;
  static final long PAUSE_MILLIS = 5;
  static final long MIN_WALL_MILLIS = 100;
  static final long MAX_WALL_MILLIS = 500;
  private static final int COUNTS = 20_000;
  private static final int TIMES = 2_000;
  private static final TimedRounds ROUNDS =
      new TimedRounds(MIN_WALL_MILLIS, MAX_WALL_MILLIS, STABLE_ROUNDS, BUDGET_NANOS, MAX_ROUNDS, PAUSE_MILLIS);

  static Calibration measure(SlotAllocator slots) {
    Calibration[] c = {new Calibration(Double.MAX_VALUE, Double.MAX_VALUE, 0, 0)};
    ROUNDS.run(() -> {
      c[0] = c[0].round(slots);
      return c[0].unchanged == 0;
    });
    return c[0];
  }

  /** This calibration with one more round's figures where they are better, until {@value #MAX_ROUNDS} rounds. */
  Calibration refined(SlotAllocator slots) {
    return rounds >= MAX_ROUNDS ? this : round(slots);
  }

  /** The better figures of this and {@code other} (both refinements of one calibration), with the more rounds. */
  Calibration merged(Calibration other) {
    boolean later = other.rounds >= rounds;
    return new Calibration(Math.min(counterNanos, other.counterNanos), Math.min(timerNanos, other.timerNanos),
        Math.max(rounds, other.rounds), later ? other.unchanged : unchanged);
  }

  private Calibration round(SlotAllocator slots) {
    int[] counters = {slots.allocate(), slots.allocate(), slots.allocate(), slots.allocate()};
    try {
      double c = counterLoop(counters);
      double t = timerLoop(counters[0]);
      boolean better = TimedRounds.improves(c, counterNanos) || TimedRounds.improves(t, timerNanos);
      return new Calibration(Math.min(counterNanos, c), Math.min(timerNanos, t), rounds + 1, better ? 0 : unchanged + 1);
    } finally {
      for (int counter : counters) {
        slots.free(counter);
      }
      Probes.releaseStripe();
    }
  }

  /** Nanoseconds one execution of a probe of {@code kind} costs. */
  double nanosPerExecution(ProbeKind kind) {
    return kind == ProbeKind.CALL_COUNT || kind == ProbeKind.ALLOCATION ? counterNanos : timerNanos;
  }

  /**
   * Counts into four slots in turn: back to back into one cell, each add would wait for the previous
   * one's store, which probes spread through real code do not, and the figure would double.
   */
  private static double counterLoop(int[] counters) {
    long start = cpuNow();
    for (int i = 0; i < COUNTS; i += 4) {
      Probes.count(counters[0]);
      Probes.count(counters[1]);
      Probes.count(counters[2]);
      Probes.count(counters[3]);
    }
    return (double) Math.max(0, cpuNow() - start) / COUNTS;
  }

  private static double timerLoop(int slot) {
    long start = cpuNow();
    for (int i = 0; i < TIMES; i++) {
      Probes.time(slot, Probes.now());
    }
    return (double) Math.max(0, cpuNow() - start) / TIMES;
  }

  private static long cpuNow() {
    return TimedRounds.cpuNow();
  }
}
