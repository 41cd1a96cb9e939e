package dev.bottlenose.agent.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClassDefineDutyTest {
  private static final long SECOND = 1_000_000_000L;

  /** Which of {@code seconds} calls, a second apart, record, the program defining {@code perSecond} classes a second. */
  private static List<Boolean> run(ClassDefineDuty duty, long startSecond, int seconds, long[] loaded, long perSecond) {
    List<Boolean> out = new ArrayList<>();
    for (int i = 0; i < seconds; i++) {
      out.add(duty.next((startSecond + i) * SECOND, loaded[0]));
      loaded[0] += perSecond;
    }
    return out;
  }

  @Test
  void aProgramDefiningFewClassesHasEveryDefinitionRecorded() {
    ClassDefineDuty duty = new ClassDefineDuty();
    assertThat(run(duty, 0, 20, new long[] {5_000}, ClassDefineDuty.MAX_PER_SECOND)).containsOnly(true);
  }

  @Test
  void aProgramDefiningManyIsRecordedOneSecondInSeveralSoThatAboutTheLimitIsRecorded() {
    ClassDefineDuty duty = new ClassDefineDuty();
    long[] loaded = {5_000};
    List<Boolean> first = run(duty, 0, 2, loaded, 400);
    assertThat(first).as("the first second, before a rate is known, then off: it showed a high rate")
        .containsExactly(true, false);
    List<Boolean> then = run(duty, 2, 40, loaded, 400);
    assertThat(then.stream().filter(b -> b).count()).as("one second in four at 400 a second").isEqualTo(10);

    List<Boolean> fast = run(duty, 42, 64, loaded, 100_000);
    assertThat(fast.stream().filter(b -> b).count()).as("at most one second in %d", ClassDefineDuty.MAX_CYCLE)
        .isBetween(4L, 5L);

    List<Boolean> calm = run(duty, 106, 5, loaded, 10);
    assertThat(calm.subList(1, 5)).as("back to every definition once the rate is low").containsOnly(true);
  }

  @Test
  void aRateWaveringBetweenTwoCycleLengthsStillReachesItsRecordedSecond() {
    ClassDefineDuty duty = new ClassDefineDuty();
    long loaded = 0;
    int recorded = 0;
    for (int i = 0; i < 60; i++) {
      recorded += duty.next(i * SECOND, loaded) ? 1 : 0;
      loaded += i % 2 == 0 ? 650 : 750;  // cycles of 7 and 8 in turn
    }
    assertThat(recorded).isBetween(7, 10);
  }
}
