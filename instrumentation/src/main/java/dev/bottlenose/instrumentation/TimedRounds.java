package dev.bottlenose.instrumentation;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Runs a short timed loop in rounds, as the agent's calibrations do: a pause of {@code pauseMillis} between
 * rounds leaves the compiler threads the core so the loop gets compiled; it stops after {@code minWallMillis}
 * once the best figures have not improved by 3% for {@code stableRounds} rounds, and at the latest after
 * {@code maxWallMillis}, {@code maxRounds} rounds or {@code cpuBudgetNanos} of this thread's CPU. The caller
 * keeps the fastest round: a round is only ever slowed (interpreted, waiting for its compilation, preempted).
 */
public record TimedRounds(long minWallMillis, long maxWallMillis, int stableRounds, long cpuBudgetNanos, int maxRounds,
    long pauseMillis) {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /**
   * One round: runs it and says whether a figure improved. An interface of the agent's own, not the JDK's
   * {@code BooleanSupplier}: a program's compiled code may rely on that interface having one implementation (an
   * HTTP client's did), and the agent's lambda being a second made the JIT throw that code away.
   */
  public interface Round {
    boolean run();
  }

  /** Runs rounds until a limit says stop. */
  public void run(Round round) {
    long cpuDeadline = cpuNow() + cpuBudgetNanos;
    long start = System.nanoTime();
    int unchanged = 0;
    for (int r = 0; r < maxRounds && cpuNow() < cpuDeadline; r++) {
      unchanged = round.run() ? 0 : unchanged + 1;
      long wall = (System.nanoTime() - start) / 1_000_000;
      if (wall >= maxWallMillis || wall >= minWallMillis && unchanged >= stableRounds) {
        return;
      }
      pause();
    }
  }

  /** Whether a round's figure {@code now} improves on the best so far by more than 3%. */
  public static boolean improves(double now, double best) {
    return now < best * 0.97;
  }

  /** This thread's CPU time, so that time the compiler threads or anyone else take from it is not counted. */
  public static long cpuNow() {
    return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
  }

  private void pause() {
    try {
      Thread.sleep(pauseMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
