package dev.bottlenose.daemon.jfr;

import java.util.HashMap;
import java.util.Map;

/**
 * How much time one native-method sample stands for. JFR's sampler takes one thread in native code per period
 * (HotSpot's {@code MAX_NR_OF_NATIVE_SAMPLES} is 1), going round the thread list from the thread it took last
 * and taking the next one that is in native code at that moment; a period in which no thread is in native
 * code has no sample. So a thread that stays in native code is taken once per turn round the threads that
 * are, and a turn lasts as many periods as samples were taken in it. Over a stretch of {@code N} samples in
 * which the thread taken most often was taken {@code m} times, a turn lasts {@code N / m} periods and each
 * sample stands for {@code period × N / m} of its thread's time: with two threads always in native code, two
 * periods each; with one always there and one half the time, {@code N / m} is 1.5, which gives each its true
 * share; with a single thread there a quarter of the time, one period. The period is measured from the
 * samples: the mean gap between consecutive samples one period apart (gaps under one and a half times the
 * period the agent's recording asks for), since JFR waits a whole period after each round and a loaded machine
 * makes its rounds late (taking the asked period on a busy two-core machine counted a reader that was always
 * blocked as 74% of the time); the asked period while no two samples were one period apart.
 *
 * <p>It assumes the thread taken most often stays in native code while others are (a selector, a blocked
 * reader, the writer of a busy file: where the question matters); where it does not, it overstates a little.
 * When more threads sit in native code than a stretch has samples, stretches are pooled (up to
 * {@value #POOL_NANOS} ns) until some thread was taken {@value #TURNS} times, so that a turn is measured
 * rather than assumed.
 */
final class NativeTurns {
  static final int TURNS = 4;
  static final long POOL_NANOS = 10_000_000_000L;

  /** Samples pooled at most, past which the pool is measured whatever it holds (20 s at 10 ms). */
  static final int MAX_SAMPLES = 2_000;

  private final Map<Long, Integer> byThread = new HashMap<>();
  private long[] times = new long[64];
  private int samples;
  private int most;
  private long each = -1;

  /** One native-method sample of thread {@code tid} (any thread: the tool's and the JDK's take turns too). */
  void sampled(long tid, long atNanos) {
    if (samples == times.length) {
      times = java.util.Arrays.copyOf(times, samples * 2);
    }
    times[samples++] = atNanos;
    most = Math.max(most, byThread.merge(tid, 1, Integer::sum));
  }

  /** Whether samples since the last turn measured are waiting. */
  boolean pending() {
    return samples > 0;
  }

  /**
   * The nanoseconds each sample of the stretch just ended stands for: measured from the samples pooled so far
   * when they were enough, else the last measure ({@code periodNanos}, the period the agent's recording asks
   * for, before the first).
   */
  long settle(long periodNanos) {
    if (samples >= 3) {
      long[] t = java.util.Arrays.copyOf(times, samples);
      java.util.Arrays.sort(t);
      long oneRound = 0;
      int rounds = 0;
      for (int i = 1; i < samples; i++) {
        long gap = t[i] - t[i - 1];
        if (gap > 0 && gap < periodNanos * 3 / 2) {
          oneRound += gap;
          rounds++;
        }
      }
      long period = rounds == 0 ? periodNanos : oneRound / rounds;
      boolean enough = most >= TURNS || t[samples - 1] - t[0] >= POOL_NANOS || samples >= MAX_SAMPLES;
      if (period > 0 && (enough || each < 0)) {
        each = Math.round(period * (double) samples / most);
      }
      if (enough) {
        clear();
      }
    }
    return each > 0 ? each : periodNanos;
  }

  private void clear() {
    byThread.clear();
    samples = 0;
    most = 0;
  }
}
