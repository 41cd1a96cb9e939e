package dev.bottlenose.consultant.bus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.metrics.MetricCompiler;
import dev.bottlenose.metrics.MetricLibrary;
import dev.bottlenose.metrics.ProbePlan;
import dev.bottlenose.model.Focus;
import org.junit.jupiter.api.Test;

/** The rate a plan's cost model is read at: I/O events at the target's rate of read and write system calls. */
class IoEventRateTest {
  private static ProbePlan plan(String metric) {
    return MetricCompiler.compile(MetricLibrary.builtin().metric(metric), Focus.WHOLE_PROGRAM);
  }

  @Test
  void ioEventsArePricedAtTheTargetsIoCallsSharedAmongTheItemsThatRecordThem() {
    assertThat(plan("io_wait").ioEventItems()).isEqualTo(4);
    assertThat(CostPredictor.eventsPerSecond(plan("io_wait"), 1_200_000)).isEqualTo(300_000);
    assertThat(CostPredictor.eventsPerSecond(plan("io_wait"), 20)).as("never below the reference rate").isEqualTo(100);
    assertThat(CostPredictor.eventsPerSecond(plan("io_wait"), Double.NaN)).as("not reported").isEqualTo(100);
  }

  @Test
  void samplesAndOtherEventsKeepTheReferenceRate() {
    assertThat(plan("io_time").ioEventItems()).isZero();
    assertThat(CostPredictor.eventsPerSecond(plan("io_time"), 1_200_000)).isEqualTo(100);
    assertThat(CostPredictor.eventsPerSecond(plan("sync_wait"), 1_200_000)).isEqualTo(100);
  }
}
