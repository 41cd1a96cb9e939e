package dev.bottlenose.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.CodePaths;
import java.util.List;
import org.junit.jupiter.api.Test;

class LongRunningFramesTest {
  private static final String[] RUN = frame("java.lang.Thread", "run()V");
  private static final String[] LOOP = frame("com.acme.Batch", "loop()V");
  private static final String[] STEP = frame("com.acme.Batch$Step", "apply(J)J");
  private static final String[] OTHER = frame("com.acme.Other", "work()V");

  /** A frame as the call graph records it: package, class and method paths. */
  private static String[] frame(String className, String method) {
    return new String[] {CodePaths.packageOf(className).toString(), CodePaths.ofClass(className).toString(),
        CodePaths.ofClass(className) + "/" + method};
  }

  private final LongRunningFrames frames = new LongRunningFrames(tid -> -1, 0);

  /**
   * Samples of thread {@code thread} every 20 ms from {@code fromMillis} to {@code toMillis} (one in five is
   * looked at), the step on top in every other one looked at.
   */
  private void loop(long thread, long fromMillis, long toMillis) {
    for (long t = fromMillis; t <= toMillis; t += 20) {
      frames.sampled(thread, thread, "batch", t, (t / 20) % 2 == 0 ? List.of(STEP, LOOP, RUN) : List.of(LOOP, RUN), false);
    }
  }

  @Test
  void aMethodOnTheStackInEverySampleForTwoSecondsMakesItsClassBusy() {
    loop(1, 0, 1_900);
    assertThat(frames.runningIn("com.acme.Batch")).as("not yet two seconds").isNull();
    loop(1, 1_920, 2_500);
    assertThat(frames.runningIn("com.acme.Batch")).isEqualTo("/Code/com.acme/Batch/loop()V has been on the stack of"
        + " thread 'batch' in each of its 26 execution samples for 3 s");
    assertThat(frames.runningIn("com.acme.Batch$Step")).as("on top in every other sample only").isNull();
    assertThat(frames.runningIn("com.acme.Other")).isNull();
  }

  @Test
  void aSampleWithoutTheMethodStartsItsClockAgain() {
    loop(1, 0, 3_000);
    frames.sampled(1, 1, "batch", 3_100, List.of(OTHER, RUN), false);
    assertThat(frames.runningIn("com.acme.Batch")).as("it returned").isNull();
    loop(1, 3_200, 4_000);
    assertThat(frames.runningIn("com.acme.Batch")).isNull();
  }

  @Test
  void aTruncatedStackSaysNothingAboutTheFramesBelowItsCut() {
    loop(1, 0, 1_000);
    frames.sampled(1, 1, "batch", 1_100, List.<String[]>of(OTHER), true);
    loop(1, 1_200, 2_500);
    assertThat(frames.runningIn("com.acme.Batch")).isNotNull();
  }

  @Test
  void aThreadNotSampledForThirtySecondsNoLongerCounts() {
    loop(1, 0, 3_000);
    frames.sampled(2, 2, "other", 33_100, List.of(OTHER, RUN), false);
    assertThat(frames.runningIn("com.acme.Batch")).isNull();
    assertThat(frames.runningIn("java.lang.Thread")).as("thread 2 has been sampled once").isNull();
  }

  /**
   * Thread 1 on the test's clock, from {@code clock}'s time to {@code toMillis}: running all the time (its CPU time in
   * {@code cpuNanos}), sampled in the loop every 20 ms (one in five looked at), a flush each second.
   */
  private static void runs(LongRunningFrames on, long[] clock, long[] cpuNanos, long toMillis) {
    for (long t = clock[0]; t <= toMillis; t += 20) {
      cpuNanos[0] += (t - clock[0]) * 1_000_000;
      clock[0] = t;
      on.sampled(1, 1, "batch", t, List.of(LOOP, RUN), false);
      if (t % 1_000 == 0) {
        on.flushed(t);
      }
    }
  }

  /**
   * No sample of thread 1 from {@code fromMillis} to {@code toMillis}, a flush each second, its CPU time advancing
   * by {@code share} of the time; what {@link LongRunningFrames#runningIn} says of the loop's class at the
   * end.
   */
  private static String unsampled(LongRunningFrames on, long[] clock, long[] cpuNanos, long fromMillis, long toMillis,
      double share) {
    for (long t = fromMillis; t <= toMillis; t += 100) {
      cpuNanos[0] += Math.round((t - clock[0]) * 1_000_000 * share);
      clock[0] = t;
      if (t % 1_000 == 0) {
        on.flushed(t);
      }
    }
    return on.runningIn("com.acme.Batch");
  }

  @Test
  void aThreadWhoseCpuTimeStandsStillNoLongerCountsOnceThatHasBeenSeenForTwoSeconds() {
    long[] clock = {10_000};
    long[] cpuNanos = {0};
    LongRunningFrames blocking = new LongRunningFrames(tid -> cpuNanos[0], 0, () -> clock[0]);
    runs(blocking, clock, cpuNanos, 13_000);
    assertThat(blocking.runningIn("com.acme.Batch")).as("ran the loop for 3 s").isNotNull();
    // it runs 50 ms past its last sample looked at, then blocks (reading its next command): no more samples
    clock[0] = 13_050;
    cpuNanos[0] += 50_000_000;
    assertThat(unsampled(blocking, clock, cpuNanos, 13_100, 14_500, 0)).as("still for 1.45 s").isNotNull();
    assertThat(unsampled(blocking, clock, cpuNanos, 14_600,
        13_050 + LongRunningFrames.IDLE_MILLIS + LongRunningFrames.CPU_READ_MILLIS, 0))
        .as("the first reading to see it still came within a second, and then two seconds passed").isNull();
    assertThat(unsampled(blocking, clock, cpuNanos, clock[0] + 100, clock[0] + 1_000, 1))
        .as("running again (no sample yet)").isNotNull();
  }

  @Test
  void aThreadWhoseCpuTimeAdvancesWithoutSamplesCountsUntilItIsStale() {
    long[] clock = {10_000};
    long[] cpuNanos = {0};
    LongRunningFrames unseen = new LongRunningFrames(tid -> cpuNanos[0], 0, () -> clock[0]);
    runs(unseen, clock, cpuNanos, 13_000);
    // JFR samples a few threads per period, so a running thread may go unsampled while others are
    for (long t = 14_000; t <= 13_000 + LongRunningFrames.STALE_MILLIS; t += 1_000) {
      assertThat(unsampled(unseen, clock, cpuNanos, t - 900, t, 0.5)).as("at %d ms", t).isNotNull();
      unseen.sampled(2, 2, "other", t, List.of(OTHER, RUN), false);
    }
    unseen.sampled(2, 2, "other", 13_100 + LongRunningFrames.STALE_MILLIS, List.of(OTHER, RUN), false);
    assertThat(unsampled(unseen, clock, cpuNanos, clock[0] + 100, clock[0] + 100, 0.5)).as("not sampled for 30 s")
        .isNull();
  }

  @Test
  void evidenceIsAwaitedUntilTheSamplesCoverTwoSecondsFromTheStart() throws Exception {
    long start = System.currentTimeMillis();
    LongRunningFrames fresh = new LongRunningFrames(tid -> -1, start);
    Thread sampler = new Thread(() -> {
      for (long t = start; t <= start + LongRunningFrames.COVER_MILLIS; t += 100) {
        fresh.sampled(1, 1, "batch", t, List.of(LOOP, RUN), false);
      }
    });
    long before = System.nanoTime();
    sampler.start();
    fresh.awaitEvidence();
    sampler.join();
    assertThat((System.nanoTime() - before) / 1e9).as("samples covering two seconds came at once").isLessThan(1.0);
    assertThat(fresh.runningIn("com.acme.Batch")).isNotNull();
  }

  /**
   * Whatever the sampler's period and its jitter, once the evidence counts as in, a thread that ran the loop all
   * along is found: the first and the last of its samples that were looked at may each fall up to one look's
   * period inside the span the stream covers.
   */
  @Test
  void onceTheEvidenceIsInALoopThatRanAllAlongIsFoundWhateverTheSamplingPeriod() {
    for (long period : new long[] {10, 19, 21, 37, 99, 101, 150, 230, 390}) {
      LongRunningFrames fresh = new LongRunningFrames(tid -> -1, 0);
      fresh.sampled(2, 2, "attach", 5, List.of(OTHER, RUN), false); // another thread, sampled first
      long t = 7;
      while (!fresh.covered()) {
        fresh.sampled(1, 1, "batch", t, List.of(LOOP, RUN), false);
        t += period;
      }
      assertThat(fresh.runningIn("com.acme.Batch")).as("sampled every %d ms, evidence in at %d ms", period, t)
          .isNotNull();
    }
  }

  @Test
  void aDaemonReadingBehindTheTargetWaitsForTheSamplesItHasNotReadYet() {
    LongRunningFrames behind = new LongRunningFrames(tid -> -1, 0);
    behind.sampled(1, 1, "batch", 1_000, List.of(LOOP, RUN), false);
    behind.flushed(2_000);
    assertThat(behind.covered()).as("the stream has delivered one second past the first sample").isFalse();
    behind.flushed(1_000 + 2 * LongRunningFrames.MIN_MILLIS + LongRunningFrames.FLUSH_LAG_MILLIS);
    assertThat(behind.covered()).as("two periods of evidence delivered, with no more samples of that thread")
        .isTrue();
    assertThat(behind.runningIn("com.acme.Batch")).as("one sample is not a long activation").isNull();
  }

  @Test
  void closingTheStreamEndsTheWaitForEvidence() throws Exception {
    LongRunningFrames waiting = new LongRunningFrames(tid -> -1, System.currentTimeMillis());
    Thread closer = new Thread(() -> {
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        return;
      }
      waiting.stop();
    });
    long before = System.nanoTime();
    closer.start();
    waiting.awaitEvidence();
    closer.join();
    assertThat((System.nanoTime() - before) / 1e9).as("returned when the stream closed, not at the time limit")
        .isLessThan(5.0);
  }

  @Test
  void aStreamThatDeliveredFourSecondsWithoutSamplesIsEvidenceEnough() throws Exception {
    long start = System.currentTimeMillis() - 10_000;
    LongRunningFrames fresh = new LongRunningFrames(tid -> -1, start);
    fresh.flushed(start + LongRunningFrames.NO_SAMPLES_MILLIS + LongRunningFrames.FLUSH_LAG_MILLIS);
    long before = System.nanoTime();
    fresh.awaitEvidence();
    assertThat((System.nanoTime() - before) / 1e9).isLessThan(1.0);
    assertThat(fresh.runningIn("com.acme.Batch")).isNull();
  }

  @Test
  void aThreadThatRanLessThanHalfTheTimeIsTakenForOneMakingShortCalls() throws Exception {
    long[] cpuNanos = {0};
    LongRunningFrames waiting = new LongRunningFrames(tid -> cpuNanos[0], 0);
    long now = System.currentTimeMillis();
    for (long t = now - 3_000; t <= now; t += 20) {
      waiting.sampled(1, 1, "worker", t, List.of(STEP, LOOP, RUN), false);
    }
    Thread.sleep(LongRunningFrames.CPU_READ_MILLIS + 100);
    cpuNanos[0] = 100_000_000; // 0.1 s of CPU in 1.1 s
    assertThat(waiting.runningIn("com.acme.Batch")).as("blocked most of the time between samples").isNull();
    cpuNanos[0] = 1_000_000_000;
    assertThat(waiting.runningIn("com.acme.Batch")).as("running all the time").isNotNull();
  }
}
