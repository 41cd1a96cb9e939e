package dev.bottlenose.instrumentation;

import dev.bottlenose.probe.Probes;

/**
 * What one probe execution costs on this machine, measured once with a short timed loop over the
 * runtime's own entry points: a counter ({@code count}) and a timer ({@code now} + {@code time}).
 */
record Calibration(double counterNanos, double timerNanos) {
  private static final int CALLS = 20_000;
  private static final int ROUNDS = 5;

  static Calibration measure(SlotAllocator slots) {
    int slot = slots.allocate();
    try {
      double counter = Double.MAX_VALUE;
      double timer = Double.MAX_VALUE;
      for (int round = 0; round < ROUNDS; round++) {
        counter = Math.min(counter, counterLoop(slot));
        timer = Math.min(timer, timerLoop(slot));
      }
      return new Calibration(counter, timer);
    } finally {
      slots.free(slot);
    }
  }

  /** Nanoseconds one execution of a probe of {@code kind} costs. */
  double nanosPerExecution(ProbeKind kind) {
    return kind == ProbeKind.CALL_COUNT || kind == ProbeKind.ALLOCATION ? counterNanos : timerNanos;
  }

  private static double counterLoop(int slot) {
    long start = System.nanoTime();
    for (int i = 0; i < CALLS; i++) {
      Probes.count(slot);
    }
    return (double) (System.nanoTime() - start) / CALLS;
  }

  private static double timerLoop(int slot) {
    long start = System.nanoTime();
    for (int i = 0; i < CALLS; i++) {
      Probes.time(slot, Probes.now());
    }
    return (double) (System.nanoTime() - start) / CALLS;
  }
}
