package dev.bottlenose.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CalibrationTest {
  private final SlotAllocator slots = new SlotAllocator();

  @BeforeAll
  static void installTheRuntimeOnTheBootClassPath() {
    TestAgent.manager();
  }

  @Test
  void measuresCompiledProbesInRoundsAndRefinesOnlyDownwards() {
    Calibration c = Calibration.measure(slots);
    assertThat(c.rounds()).isPositive();
    assertThat(c.counterNanos()).isPositive().isLessThan(c.timerNanos());

    Calibration refined = c.refined(slots);

    assertThat(refined.rounds()).isEqualTo(c.rounds() + 1);
    assertThat(refined.counterNanos()).isLessThanOrEqualTo(c.counterNanos());
    assertThat(refined.timerNanos()).isLessThanOrEqualTo(c.timerNanos());
    assertThat(refined.nanosPerExecution(ProbeKind.CALL_COUNT)).isEqualTo(refined.counterNanos());
    assertThat(refined.nanosPerExecution(ProbeKind.WALL_INCLUSIVE)).isEqualTo(refined.timerNanos());
  }

  @Test
  void stopsRefiningAfterItsLastRound() {
    Calibration done = new Calibration(1.5, 50, Calibration.MAX_ROUNDS, 0);
    assertThat(done.refined(slots)).isSameAs(done);
  }

  @Test
  void twoRefinementsMergeToTheBetterFiguresAndTheMoreRounds() {
    Calibration one = new Calibration(2.0, 50, 12, 3);
    Calibration other = new Calibration(1.5, 60, 13, 0);

    assertThat(one.merged(other)).isEqualTo(new Calibration(1.5, 50, 13, 0));
    assertThat(other.merged(one)).isEqualTo(new Calibration(1.5, 50, 13, 0));
  }
}
