package dev.bottlenose.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import dev.bottlenose.model.Focus;
import org.junit.jupiter.api.Test;

/** Predicted cost from the calibration: per probe execution, per watched event, and fixed for sampling. */
class CostModelTest {
  private static final Calibration CAL = new Calibration(2, 40, 20_000_000);

  private static ProbePlan.Cost cost(String metric, String focus) {
    return MetricCompiler.compile(MetricLibrary.builtin().metric(metric), Focus.parse(focus)).predictedCost(CAL);
  }

  @Test
  void counterAndTimerProbesCostWhatTheBenchmarksMeasured() {
    assertThat(cost("calls", "</Code/a/B/m>")).isEqualTo(new ProbePlan.Cost(0, 2 + 2));
    assertThat(cost("wall", "</Code/a/B/m>")).isEqualTo(new ProbePlan.Cost(0, 2 * 2 + 2 * 25 + 2 * 2));
    assertThat(cost("calls", "</Code/a/B/m>").fractionAt(100)).isCloseTo(400e-9, offset(1e-15));
    assertThat(dev.bottlenose.model.json.Json.write(cost("calls", "</Code/a/B/m>").toJson())).isEqualTo("{\"fixedNanosPerSecond\":0.0,\"nanosPerEvent\":4.0}");
  }

  @Test
  void samplingIsAFixedCostAndEventsCostPerOccurrence() {
    assertThat(cost("cpu", "<>")).isEqualTo(new ProbePlan.Cost(50 * (20_000 + 500), 0));
    assertThat(cost("sync_wait", "<>")).isEqualTo(new ProbePlan.Cost(0, 2 * 600));
    assertThat(cost("wait_time", "<>")).isEqualTo(new ProbePlan.Cost(0, 3 * 600));
    ProbePlan.Cost mco = cost("method_call_overhead", "</Code/a/B/m>");
    assertThat(mco).isEqualTo(new ProbePlan.Cost(50 * (20_000 + 2 * 500), 4));
    assertThat(mco.fractionAt(1_000_000)).isCloseTo((1_050_000 + 4_000_000) / 1e9, offset(1e-12));
  }

  @Test
  void cpuSamplesCostAtThePeriodTheyAreTakenAtAndTheAgentsOwnSamplesAtItsConfiguredOne() {
    ProbePlan cpu = MetricCompiler.compile(MetricLibrary.builtin().metric("cpu"), Focus.parse("<>"));
    // a 1% search samples every 100 ms: 10 walks a second, not the configured 50
    assertThat(cpu.predictedCost(CAL, 100_000_000)).isEqualTo(new ProbePlan.Cost(10 * (20_000 + 500), 0));
    assertThat(cpu.predictedCost(CAL, 20_000_000)).isEqualTo(cpu.predictedCost(CAL));
    // native-method samples (I/O) and the lock samples are the agent's, taken at its configured period whatever
    // the search asks its cpu samples at
    for (String metric : new String[] {"io_time", "sync_wait_sampled"}) {
      ProbePlan plan = MetricCompiler.compile(MetricLibrary.builtin().metric(metric), Focus.parse("<>"));
      assertThat(plan.predictedCost(CAL, 100_000_000)).as(metric).isEqualTo(plan.predictedCost(CAL));
      assertThat(plan.predictedCost(CAL).fixedNanosPerSecond()).as(metric).isGreaterThan(0);
    }
  }

  @Test
  void anEventCostsAStackWalkOnlyWhereItsSourceMatchesCodeOnTheStack() {
    assertThat(cost("sync_wait", "</Threads/main>")).isEqualTo(new ProbePlan.Cost(0, 2 * 600));
    assertThat(cost("sync_wait", "</SyncObjects/locks>")).isEqualTo(new ProbePlan.Cost(0, 2 * 600));
    assertThat(cost("sync_wait", "</Code/a/B/m>")).isEqualTo(new ProbePlan.Cost(0, 2 * 2_000));
    assertThat(cost("io_ops", "</Code/a>")).isEqualTo(new ProbePlan.Cost(0, 4 * 2_000));
    // the compiled method itself is the event's: no stack
    assertThat(cost("jit_compile_time", "</Code/a/B/m>")).isEqualTo(new ProbePlan.Cost(0, 600));
  }
}
