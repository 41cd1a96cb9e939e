package dev.bottlenose.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Test;

/**
 * {@link NativeTurns} against JFR's native sampler played out: one sample per period, of the next thread in the
 * list after the last one taken that is in native code at that tick (HotSpot's JfrThreadSampler), and the
 * estimate of each thread's time in native code compared with the ticks it really was there.
 */
class NativeTurnsTest {
  private static final long PERIOD = 20_000_000;

  /** Plays {@code ticks} periods of {@code threads} threads; returns each thread's estimated and true native nanos. */
  private static double[][] play(int threads, int ticks, BiPredicate<Integer, Integer> inNative) {
    return play(threads, ticks, inNative, new long[ticks]);
  }

  /** As above, round {@code i} coming {@code late[i]} ns after its period (a loaded machine). */
  private static double[][] play(int threads, int ticks, BiPredicate<Integer, Integer> inNative, long[] late) {
    NativeTurns turns = new NativeTurns();
    double[] estimated = new double[threads];
    double[] truth = new double[threads];
    long[] stretch = new long[threads];
    int last = threads - 1;
    long at = 0;
    for (int tick = 0; tick < ticks; tick++) {
      long round = PERIOD + late[tick];
      at += round;
      for (int t = 0; t < threads; t++) {
        truth[t] += inNative.test(t, tick) ? round : 0;
      }
      for (int step = 1; step <= threads; step++) {
        int t = (last + step) % threads;
        if (inNative.test(t, tick)) {
          turns.sampled(t, at + 3_000L * (tick % 7));
          stretch[t]++;
          last = t;
          break;
        }
      }
      if (tick % 50 == 49) {
        long each = turns.settle(PERIOD);
        for (int t = 0; t < threads; t++) {
          estimated[t] += stretch[t] * each;
          stretch[t] = 0;
        }
      }
    }
    return new double[][] {estimated, truth};
  }

  /** {@code ticks} rounds, each true with probability 1/{@code n}. */
  private static boolean[] oneIn(int n, int ticks, long seed) {
    Random random = new Random(seed);
    boolean[] in = new boolean[ticks];
    for (int i = 0; i < ticks; i++) {
      in[i] = random.nextInt(n) == 0;
    }
    return in;
  }

  @Test
  void twoThreadsAlwaysInNativeCodeEachGetTheWholeTime() {
    double[][] r = play(2, 500, (t, tick) -> true);
    assertThat(r[0][0]).isCloseTo(r[1][0], within(r[1][0] * 0.02));
    assertThat(r[0][1]).isCloseTo(r[1][1], within(r[1][1] * 0.02));
  }

  @Test
  void oneThreadAlwaysThereAndOneHalfTheTimeGetTheirShares() {
    boolean[] half = oneIn(2, 2000, 7);
    double[][] r = play(2, 2000, (t, tick) -> t == 0 || half[tick]);
    assertThat(r[0][0]).isCloseTo(r[1][0], within(r[1][0] * 0.10));
    assertThat(r[0][1]).isCloseTo(r[1][1], within(r[1][1] * 0.10));
  }

  @Test
  void aLoneThreadInNativeCodeAQuarterOfTheTimeIsNotCountedForTheGapsBetween() {
    boolean[] quarter = oneIn(4, 2000, 11);
    double[][] r = play(1, 2000, (t, tick) -> quarter[tick]);
    assertThat(r[0][0]).isCloseTo(r[1][0], within(r[1][0] * 0.05));
  }

  @Test
  void aThreadThatSeldomDoesIoIsNotTakenForOneThatAlwaysDoes() {
    boolean[] seldom = oneIn(20, 3000, 13);
    double[][] r = play(1, 3000, (t, tick) -> seldom[tick]);
    assertThat(r[0][0]).isCloseTo(r[1][0], within(r[1][0] * 0.05));
  }

  @Test
  void roundsThatComeLateOnABusyMachineCountForTheirWholeLength() {
    Random random = new Random(17);
    long[] late = new long[2000];
    for (int i = 0; i < late.length; i++) {
      late[i] = random.nextInt(9_000_000);
    }
    boolean[] third = oneIn(3, 2000, 19);
    double[][] r = play(2, 2000, (t, tick) -> t == 0 || third[tick], late);
    assertThat(r[0][0]).isCloseTo(r[1][0], within(r[1][0] * 0.05));
    assertThat(r[0][1]).isCloseTo(r[1][1], within(r[1][1] * 0.10));
  }

  @Test
  void moreThreadsInNativeCodeThanAStretchHasSamplesArePooledUntilTurnsAreMeasured() {
    double[][] r = play(120, 3000, (t, tick) -> true);
    double estimated = 0;
    double truth = 0;
    for (int t = 0; t < 120; t++) {
      estimated += r[0][t];
      truth += r[1][t];
    }
    assertThat(estimated).as("all threads together").isCloseTo(truth, within(truth * 0.35));
  }
}
