package dev.bottlenose.consultant;

import dev.bottlenose.consultant.rules.Evidence;
import dev.bottlenose.consultant.rules.Guess;
import java.util.List;

/**
 * The test of one node over time, as Paradyn's experiments did it: values from the first {@code
 * minObservation} after the start are not counted; every counted value updates the cumulative average
 * since then; the guess compares it with the threshold scaled by the hysteresis constant (harder to
 * become true than to stay true); the time the guess has held grows by each interval and restarts when
 * the guess flips.
 */
final class Experiment {
  private final int nodeId;
  private final Hypothesis hypothesis;
  private final MetricRequest valueRequest;
  private final MetricRequest perRequest;
  private final long startedAtMillis;
  private final long countFromMillis;
  private final long intervalMillis;
  private long lastCounted = -1;
  private int samples;
  private double sum;
  private Guess guess = Guess.NONE;
  private double heldSeconds;
  private double value = Double.NaN;

  Experiment(int nodeId, Hypothesis hypothesis, dev.bottlenose.model.Focus focus, long startedAtMillis, long minObservationMillis, long intervalMillis) {
    this.nodeId = nodeId;
    this.hypothesis = hypothesis;
    this.valueRequest = hypothesis.valueNeed().requestAt(focus);
    this.perRequest = hypothesis.perNeed() == null ? null : hypothesis.perNeed().requestAt(focus);
    this.startedAtMillis = startedAtMillis;
    this.countFromMillis = startedAtMillis + minObservationMillis;
    this.intervalMillis = intervalMillis;
  }

  static List<MetricRequest> requests(Hypothesis h, dev.bottlenose.model.Focus focus) {
    return h.needs().stream().map(n -> n.requestAt(focus)).distinct().toList();
  }

  long startedAtMillis() {
    return startedAtMillis;
  }

  double value() {
    return value;
  }

  /** Counts the values that arrived since the last call and returns the evidence as of {@code nowMillis}. */
  Evidence evaluate(long nowMillis, Measurements measurements) {
    List<ValueSeries.Point> per = perRequest == null ? List.of() : measurements.samples(perRequest);
    for (ValueSeries.Point s : measurements.samples(valueRequest)) {
      if (s.atMillis() > lastCounted && s.atMillis() > countFromMillis) {
        count(s, per);
      }
    }
    return new Evidence(nodeId, guess, value, hypothesis.threshold(), heldSeconds, (nowMillis - startedAtMillis) / 1000.0, samples);
  }

  private void count(ValueSeries.Point s, List<ValueSeries.Point> per) {
    long dt = lastCounted < 0 ? Math.min(intervalMillis, s.atMillis() - countFromMillis) : s.atMillis() - lastCounted;
    lastCounted = s.atMillis();
    samples++;
    sum += s.value();
    value = sum / samples;
    if (perRequest != null) {
      double denominator = average(per, s.atMillis());
      value = denominator > 0 ? value / denominator : Double.NaN;
    }
    Guess now = Double.isNaN(value) ? Guess.NONE
        : hypothesis.comparison().passes(value, hypothesis.threshold(), factor()) ? Guess.PASSES : Guess.FAILS;
    if (now != guess) {
      guess = now;
      heldSeconds = now == Guess.NONE ? 0 : dt / 1000.0;
    } else if (now != Guess.NONE) {
      heldSeconds += dt / 1000.0;
    }
  }

  /** The hysteresis constant for the next guess: after a pass, staying true is easier than becoming true. */
  private double factor() {
    double sign = hypothesis.comparison() == Comparison.ABOVE ? 1 : -1;
    return guess == Guess.PASSES ? 1 - sign * hypothesis.hysteresis() : 1 + sign * hypothesis.hysteresis();
  }

  private double average(List<ValueSeries.Point> per, long upTo) {
    double total = 0;
    int n = 0;
    for (ValueSeries.Point p : per) {
      if (p.atMillis() > countFromMillis && p.atMillis() <= upTo) {
        total += p.value();
        n++;
      }
    }
    return n == 0 ? Double.NaN : total / n;
  }
}
