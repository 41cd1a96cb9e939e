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
  void aPassInsideTheHysteresisBandHoldsButIsNotDecisiveUntilTheValuePassesTheBarAgain() {
    feed(1, 0.9);
    Evidence e = feed(2, 0.40);
    assertThat(e.guess()).isEqualTo(Guess.PASSES);
    assertThat(e.decisive()).isTrue();
    for (int s = 3; s <= 12; s++) {
      e = feed(s, 0.28);
    }
    assertThat(e.value()).as("the average, in the band between 0.285 and 0.315").isBetween(0.285, 0.30);
    assertThat(e.guess()).isEqualTo(Guess.PASSES);
    assertThat(e.decisive()).isFalse();
  }

  @Test
  void steadyValuesFarAboveTheThresholdAreClearAfterThreeIntervalsAndNoisyValuesNearItAreNot() {
    Experiment sure = new Experiment(9, cpu, Focus.WHOLE_PROGRAM, T0, 1000, 1000, 3.0);
    double[] steady = {0.80, 0.84, 0.82, 0.83};
    double[] noisy = {0.30, 0.45, 0.33, 0.44, 0.31, 0.46};
    Evidence e = null;
    for (int s = 0; s < steady.length; s++) {
      measurements.value(values.handle, T0 + (s + 2) * 1000L, steady[s], 0.001);
      e = sure.evaluate(T0 + (s + 2) * 1000L, measurements);
      assertThat(e.clear()).as("after %d intervals", s + 1).isEqualTo(s + 1 >= 3);
    }
    assertThat(e.guess()).isEqualTo(Guess.PASSES);

    Experiment unsure = new Experiment(10, cpu, Focus.WHOLE_PROGRAM, T0 + 10_000, 1000, 1000, 3.0);
    for (int s = 0; s < noisy.length; s++) {
      measurements.value(values.handle, T0 + 10_000 + (s + 2) * 1000L, noisy[s], 0.001);
      e = unsure.evaluate(T0 + 10_000 + (s + 2) * 1000L, measurements);
      assertThat(e.clear()).as("noisy, after %d intervals", s + 1).isFalse();
    }
  }

  @Test
  void measuredInBurstsItKeepsItsEvidenceCountsOnlyTheBurstsAndIsTestedForTheTimeItWasMeasured() {
    feed(1, 0.9);
    feed(2, 0.5);
    feed(3, 0.5);
    experiment.pause(T0 + 3_500);
    Evidence resting = feed(6, 0.0);
    assertThat(resting.samples()).as("a value of a measurement shared with another node, while paused").isEqualTo(2);
    assertThat(resting.testedSeconds()).isEqualTo(3.5);

    experiment.resume(T0 + 10_000);
    assertThat(feed(11, 0.0).samples()).as("the first second of a burst does not count").isEqualTo(2);
    Evidence e = null;
    for (int s = 12; s <= 15; s++) {
      e = feed(s, 0.5);
    }

    assertThat(e).isEqualTo(new Evidence(7, Guess.PASSES, 0.5, 0.30, 6.0, 8.5, 6));
  }

  /**
   * A node that inserts probes, measured in one burst that starts half an interval before one of the daemon's
   * samples: the burst's length leaves three whole intervals after the minimum observation, so clear evidence
   * has held for the clear time before the burst ends; a burst one interval shorter never got there.
   */
  @Test
  void oneBurstHoldsClearEvidenceForTheClearTimeThoughItStartsBetweenTwoSamples() {
    Settings settings = Settings.defaults();
    long interval = settings.millis("search.sampling_interval_seconds");
    long minObservation = settings.millis("search.min_observation_seconds") + interval;
    long burst = Experiments.burstMillis(settings) + interval;
    for (long length : new long[] {burst - interval, burst}) {
      long start = T0 + 100_000 * length;
      Experiment probed = new Experiment(11, cpu, Focus.WHOLE_PROGRAM, start, minObservation, interval, 3.0);
      Evidence e = null;
      for (long at = start + interval / 2; at <= start + length; at += interval) {
        measurements.value(values.handle, at, at < start + minObservation ? 4.0 : 0.8, 0.001);
        e = probed.evaluate(at, measurements);
      }
      probed.pause(start + length);
      boolean concludes = e.clear() && e.heldSeconds() >= settings.number("search.clear_seconds");
      assertThat(concludes).as("a burst of %d ms: %s", length, e).isEqualTo(length == burst);
    }
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

  private Evidence feed(double fromSecond, double toSecond, double value, double nowSecond) {
    measurements.value(values.handle, T0 + Math.round(fromSecond * 1000), T0 + Math.round(toSecond * 1000), value, 0.001);
    return experiment.evaluate(T0 + Math.round(nowSecond * 1000), measurements);
  }

  @Test
  void evidenceTimeIsTheDataTimeItsValuesCoverNotHowManyArrived() {
    feed(1, 1.5, 0.6, 2.5);
    feed(1.5, 3, 0.6, 4);
    Evidence e = feed(3, 7, 0.6, 8.5);

    assertThat(e.guess()).isEqualTo(Guess.PASSES);
    assertThat(e.heldSeconds()).isEqualTo(6.0);
    assertThat(e.samples()).isEqualTo(3);
  }

  @Test
  void aBurstAndTheQuietBeforeItAverageOverTheirDataTime() {
    feed(1, 2.8, 0.0, 3);
    Evidence e = feed(2.8, 3, 9.0, 3.5);

    assertThat(e.value()).isCloseTo(0.9, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(e.guess()).isEqualTo(Guess.PASSES);
    assertThat(e.heldSeconds()).isCloseTo(0.2, org.assertj.core.api.Assertions.within(1e-9));
  }

  @Test
  void missingIntervalsAddNoEvidenceTime() {
    feed(1, 2, 0.5, 2);
    Evidence e = feed(5, 6, 0.5, 6);

    assertThat(e.heldSeconds()).isEqualTo(2.0);
    assertThat(e.testedSeconds()).isEqualTo(6.0);
  }

  @Test
  void anIntervalArrivingAfterALaterOneStillCountsButAddsOnlyTimeNotYetCovered() {
    feed(2, 3, 0.5, 3);
    feed(3, 4, 0.5, 4);
    Evidence e = feed(1, 3, 0.2, 4.5);

    assertThat(e.samples()).isEqualTo(3);
    assertThat(e.value()).isCloseTo((0.5 + 0.5 + 0.2 * 2) / 4, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(e.heldSeconds()).isEqualTo(2.0);
  }

  @Test
  void dataFromBeforeTheMinimumObservationTimeIsCutOffEvenInsideOneLongInterval() {
    Evidence e = feed(0, 2, 0.5, 2.5);

    assertThat(e.samples()).isEqualTo(1);
    assertThat(e.heldSeconds()).isEqualTo(1.0);
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
