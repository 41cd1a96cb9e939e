package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.rules.Evidence;
import dev.bottlenose.consultant.rules.Guess;
import dev.bottlenose.model.Focus;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExperimentTest {
  private static final long T0 = 1_000_000;
  private final Hypothesis cpu = HypothesisCatalog.of(Settings.defaults()).get("cpu_bound");
  private final MetricRequest request = cpu.valueNeed().requestAt(Focus.WHOLE_PROGRAM);
  private final ScriptedValues values = new ScriptedValues();
  private final Measurements measurements = new Measurements(values);
  private final Experiment experiment = new Experiment(7, cpu, Focus.WHOLE_PROGRAM, T0, 1000, 1000);

  ExperimentTest() {
    measurements.acquire(request, 0.01);
  }

  private Evidence feed(long atSecond, double value) {
    measurements.value(values.handle, T0 + atSecond * 1000, value, 0.001);
    return experiment.evaluate(T0 + atSecond * 1000, measurements);
  }

  @Test
  void valuesInTheFirstSecondAfterTheStartDoNotCount() {
    Evidence e = feed(1, 0.9);

    assertThat(e.samples()).isZero();
    assertThat(e.guess()).isEqualTo(Guess.NONE);
    assertThat(e.testedSeconds()).isEqualTo(1.0);
  }

  @Test
  void theGuessHoldsOneSecondPerIntervalOfConsistentEvidence() {
    feed(1, 0.9);
    Evidence e = null;
    for (int s = 2; s <= 7; s++) {
      e = feed(s, 0.5);
    }

    assertThat(e).isEqualTo(new Evidence(7, Guess.PASSES, 0.5, 0.30, 6.0, 7.0, 6));
  }

  @Test
  void toBecomeTrueAValueMustBeatTheThresholdByTheHysteresis() {
    assertThat(feed(2, 0.31).guess()).isEqualTo(Guess.FAILS);
    assertThat(feed(3, 0.34).guess()).isEqualTo(Guess.PASSES);
  }

  @Test
  void onceTrueItStaysTrueUntilTheValueDropsBelowTheLowerBand() {
    feed(2, 0.40);
    feed(3, 0.40);
    assertThat(feed(4, 0.10).guess()).isEqualTo(Guess.PASSES);
    Evidence e = feed(5, 0.0);

    assertThat(e.value()).isEqualTo(0.225);
    assertThat(e.guess()).isEqualTo(Guess.FAILS);
    assertThat(e.heldSeconds()).isEqualTo(1.0);
  }

  @Test
  void aRatioHypothesisDividesByItsPerMetricAndComparesBelow() {
    Hypothesis small = HypothesisCatalog.of(Settings.defaults()).get("small_io_ops");
    Experiment io = new Experiment(8, small, Focus.WHOLE_PROGRAM, T0, 1000, 1000);
    List<MetricRequest> both = Experiment.requests(small, Focus.WHOLE_PROGRAM);
    both.forEach(r -> measurements.acquire(r, 0.01));
    MeasurementHandle bytes = values.handles.get(1);
    MeasurementHandle ops = values.handles.get(2);

    measurements.value(ops, T0 + 2000, 100, 0);
    measurements.value(bytes, T0 + 2000, 100 * 512.0, 0);
    Evidence e = io.evaluate(T0 + 2000, measurements);

    assertThat(e.value()).isEqualTo(512.0);
    assertThat(e.guess()).isEqualTo(Guess.PASSES);
  }

  /** The smallest port: hands out handles and remembers them. */
  private static final class ScriptedValues implements MeasurementPort {
    final List<MeasurementHandle> handles = new java.util.ArrayList<>();
    MeasurementHandle handle;

    @Override
    public CostPrediction predict(MetricRequest request) {
      return CostPrediction.of(0.01);
    }

    @Override
    public MeasurementHandle request(MetricRequest request, double predictedCost, MeasurementSink sink) {
      handle = new MeasurementHandle(handles.size() + 1, request);
      handles.add(handle);
      return handle;
    }

    @Override
    public void release(MeasurementHandle h) {
      handles.remove(h);
    }
  }
}
