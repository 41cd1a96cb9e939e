package dev.bottlenose.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import dev.bottlenose.model.Focus;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The value of built-in metrics from known interval deltas. */
class EvaluatorTest {
  private static final Focus STEP = Focus.parse("</Code/com.acme/Sim/step()V>");
  private static final Calibration CAL = new Calibration(2.5, 40, 20_000_000);
  private static final long TWO_SECONDS = 2_000_000_000L;

  private static double value(String metric, Focus focus, Map<String, Evaluator.Delta> deltas) {
    ProbePlan plan = MetricCompiler.compile(MetricLibrary.builtin().metric(metric), focus);
    return Evaluator.evaluate(ProbePlan.fromJson(plan.toString()), deltas, TWO_SECONDS, CAL);
  }

  private static Evaluator.Delta nanos(long nanos) {
    return new Evaluator.Delta(nanos / 20_000_000, nanos, 0);
  }

  @Test
  void cpuIsSampledSecondsPerSecond() {
    assertThat(value("cpu", STEP, Map.of("s0", nanos(500_000_000)))).isCloseTo(0.25, offset(1e-12));
  }

  @Test
  void callsAreARate() {
    assertThat(value("calls", STEP, Map.of("p0", new Evaluator.Delta(1_000, 0, 0)))).isEqualTo(500.0);
  }

  @Test
  void syncWaitSumsItsTwoEventsAndWaitTimeItsThree() {
    Map<String, Evaluator.Delta> d = Map.of("s0", nanos(100_000_000), "s1", nanos(200_000_000), "s2", nanos(700_000_000));
    assertThat(value("sync_wait", Focus.WHOLE_PROGRAM, d)).isCloseTo(0.15, offset(1e-12));
    assertThat(value("wait_time", Focus.WHOLE_PROGRAM, d)).isCloseTo(0.5, offset(1e-12));
  }

  @Test
  void ioAverageSizeIsBytesPerOperationAndZeroWithoutOperations() {
    Map<String, Evaluator.Delta> d = Map.of("s0", new Evaluator.Delta(4, 0, 4096), "s1", new Evaluator.Delta(0, 0, 0),
        "s2", new Evaluator.Delta(4, 0, 12288), "s3", new Evaluator.Delta(0, 0, 0));
    assertThat(value("io_avg_size", STEP, d)).isEqualTo(2048.0);
    Evaluator.Delta none = new Evaluator.Delta(0, 0, 0);
    assertThat(value("io_avg_size", STEP, Map.of("s0", none, "s1", none, "s2", none, "s3", none))).isZero();
  }

  @Test
  void methodCallOverheadChargesOnlyCallsThatWereNotInlined() {
    // 2,000,000 calls in 2 s; a quarter of the method's samples were inlined; 2.5 ns per real call
    Map<String, Evaluator.Delta> d = Map.of("p0", new Evaluator.Delta(2_000_000, 0, 0), "s1", nanos(100_000_000), "s2", nanos(400_000_000));
    assertThat(value("method_call_overhead", STEP, d)).isCloseTo(1_000_000 * 0.75 * 2.5e-9, offset(1e-15));
    Map<String, Evaluator.Delta> noSamples = Map.of("p0", new Evaluator.Delta(2_000_000, 0, 0), "s1", nanos(0), "s2", nanos(0));
    assertThat(value("method_call_overhead", STEP, noSamples)).isCloseTo(1_000_000 * 2.5e-9, offset(1e-15));
  }

  @Test
  void objectCreationOverheadAddsTheAllocationsCostAndTheirShareOfGc() {
    // 400,000 objects in 2 s at 40 ns; GC paused 0.2 s of 2 s; the method allocated 1/4 of the sampled bytes
    Map<String, Evaluator.Delta> d = Map.of("p0", new Evaluator.Delta(400_000, 0, 0), "s1", nanos(200_000_000),
        "s2", new Evaluator.Delta(10, 0, 1_000_000), "s3", new Evaluator.Delta(40, 0, 4_000_000));
    assertThat(value("object_creation_overhead", STEP, d)).isCloseTo(200_000 * 40e-9 + 0.1 * 0.25, offset(1e-12));
  }

  @Test
  void wallAtTheWholeProgramIsOne() {
    assertThat(value("wall", Focus.WHOLE_PROGRAM, Map.of())).isEqualTo(1.0);
  }

  @Test
  void missingDeltasAndEmptyIntervalsAreErrors() {
    ProbePlan plan = MetricCompiler.compile(MetricLibrary.builtin().metric("cpu"), STEP);
    assertThatThrownBy(() -> Evaluator.evaluate(plan, Map.of(), TWO_SECONDS, CAL))
        .hasMessage("no delta for item s0 {\"source\":{\"event\":\"cpu_sample\",\"code\":\"exclusive:/Code/com.acme/Sim/step()V\"}} of metric 'cpu'");
    assertThatThrownBy(() -> Evaluator.evaluate(plan, Map.of("s0", nanos(1)), 0, CAL)).hasMessage("an interval must be longer than 0 ns, not 0");
  }

  @Test
  void calibrationIsReadFromTheHello() {
    Calibration c = Calibration.fromJson(Map.of("virtualCallNanos", 1.5, "allocationNanos", 30L, "samplePeriodNanos", 20_000_000L));
    assertThat(c).isEqualTo(new Calibration(1.5, 30, 20_000_000));
    assertThatThrownBy(() -> Calibration.fromJson(Map.of("virtualCallNanos", 1.5))).hasMessageStartingWith("calibration has no number 'allocationNanos'");
  }
}
