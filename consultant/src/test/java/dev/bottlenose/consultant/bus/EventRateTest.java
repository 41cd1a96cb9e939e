package dev.bottlenose.consultant.bus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.metrics.MetricCompiler;
import dev.bottlenose.metrics.MetricLibrary;
import dev.bottlenose.metrics.ProbePlan;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import org.junit.jupiter.api.Test;

/**
 * The rate a plan's cost model is read at: I/O events at the target's rate of read and write system calls, park,
 * wait and monitor-entry events at the rate its threads wait.
 */
class EventRateTest {
  private static final double NONE = Double.NaN;

  private static ProbePlan plan(String metric) {
    return MetricCompiler.compile(MetricLibrary.builtin().metric(metric), Focus.WHOLE_PROGRAM);
  }

  @Test
  void ioEventsArePricedAtTheTargetsIoCallsSharedAmongTheItemsThatRecordThem() {
    assertThat(plan("io_wait").eventItemsAbout(Hierarchy.IO)).isEqualTo(4);
    assertThat(CostPredictor.eventsPerSecond(plan("io_wait"), 1_200_000, 50_000)).isEqualTo(300_000);
    assertThat(CostPredictor.eventsPerSecond(plan("io_wait"), 20, NONE)).as("never below the reference rate").isEqualTo(100);
    assertThat(CostPredictor.eventsPerSecond(plan("io_wait"), NONE, NONE)).as("not reported").isEqualTo(100);
  }

  @Test
  void lockEventsArePricedAtTheProgramsWaitsSharedAmongTheItemsThatRecordThem() {
    assertThat(plan("sync_wait").eventItemsAbout(Hierarchy.SYNC_OBJECTS)).as("monitor_enter, lock_park").isEqualTo(2);
    assertThat(CostPredictor.eventsPerSecond(plan("sync_wait"), 1_200_000, 30_000)).isEqualTo(15_000);
    assertThat(CostPredictor.eventsPerSecond(plan("wait_time"), NONE, 30_000)).as("monitor_enter, monitor_wait, park")
        .isEqualTo(10_000);
    assertThat(CostPredictor.eventsPerSecond(plan("sync_wait"), NONE, 50)).as("never below the reference rate").isEqualTo(100);
    assertThat(CostPredictor.eventsPerSecond(plan("sync_wait"), NONE, NONE)).as("not reported").isEqualTo(100);
  }

  @Test
  void samplesAndOtherEventsKeepTheReferenceRate() {
    assertThat(plan("io_time").eventItemsAbout(Hierarchy.IO)).isZero();
    assertThat(plan("sync_wait_sampled").eventItemsAbout(Hierarchy.SYNC_OBJECTS)).as("lock samples: on a timer").isZero();
    assertThat(CostPredictor.eventsPerSecond(plan("io_time"), 1_200_000, 30_000)).isEqualTo(100);
    assertThat(CostPredictor.eventsPerSecond(plan("sync_wait_sampled"), 1_200_000, 30_000)).isEqualTo(100);
    assertThat(CostPredictor.eventsPerSecond(plan("cpu_inclusive"), 1_200_000, 30_000)).isEqualTo(100);
  }
}
