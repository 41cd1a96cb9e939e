package dev.bottlenose.consultant;

import dev.bottlenose.consultant.rules.Evidence;
import dev.bottlenose.consultant.rules.Guess;
import java.util.List;

/**
 * The test of one node over time, as Paradyn's experiments did it, on the data's own time: each value
 * covers an interval of the data (a JFR-fed value arrives a second or two after the events it counts,
 * and may cover more or less than one sampling interval). Data from the first {@code minObservation}
 * after the start is not counted; every counted interval updates the time-weighted cumulative average
 * since then; the guess compares it with the threshold scaled by the hysteresis constant (harder to
 * become true than to stay true); the time the guess has held grows by the data time each interval
 * covers and restarts when the guess flips. An interval that arrives late, behind one already counted,
 * still counts towards the average, but only the time not yet covered adds to the held time; data that
 * never arrives adds nothing.
 *
 * <p>While a guess holds, the values of the intervals it has held over are kept as a mean and variance: when
 * their mean passes the bar of becoming true by {@code clearZ} standard errors of those values (three
 * intervals at least), the evidence is {@link Evidence#clear clear}, and the rules may conclude before the
 * sufficient time. A ratio hypothesis (value per another metric) is never clear early.
 */
final class Experiment {
  private final int nodeId;
  private final Hypothesis hypothesis;
  private final MetricRequest valueRequest;
  private final MetricRequest perRequest;
  private final long startedAtMillis;
  private final long countFromMillis;
  private final long intervalMillis;
  private int taken;
  private long previousAt = -1;
  private long coveredTo;
  private int samples;
  private double weightedSum;
  private double weight;
  private Guess guess = Guess.NONE;
  private double heldSeconds;
  private double value = Double.NaN;
  private final double clearZ;
  private int heldIntervals;
  private double heldMean;
  private double heldSquares;

  Experiment(int nodeId, Hypothesis hypothesis, dev.bottlenose.model.Focus focus, long startedAtMillis, long minObservationMillis, long intervalMillis) {
    this(nodeId, hypothesis, focus, startedAtMillis, minObservationMillis, intervalMillis, Double.POSITIVE_INFINITY);
  }

  Experiment(int nodeId, Hypothesis hypothesis, dev.bottlenose.model.Focus focus, long startedAtMillis,
      long minObservationMillis, long intervalMillis, double clearZ) {
    this.clearZ = clearZ;
    this.nodeId = nodeId;
    this.hypothesis = hypothesis;
    this.valueRequest = hypothesis.valueNeed().requestAt(focus);
    this.perRequest = hypothesis.perNeed() == null ? null : hypothesis.perNeed().requestAt(focus);
    this.startedAtMillis = startedAtMillis;
    this.countFromMillis = startedAtMillis + minObservationMillis;
    this.coveredTo = countFromMillis;
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
    List<ValueSeries.Point> points = measurements.samples(valueRequest);
    List<ValueSeries.Point> per = perRequest == null ? List.of() : measurements.samples(perRequest);
    for (; taken < points.size(); taken++) {
      ValueSeries.Point p = points.get(taken);
      long from = from(p, previousAt);
      previousAt = Math.max(previousAt, p.atMillis());
      if (p.atMillis() > countFromMillis) {
        count(p, Math.max(from, countFromMillis), per);
      }
    }
    return new Evidence(nodeId, guess, value, hypothesis.threshold(), heldSeconds, (nowMillis - startedAtMillis) / 1000.0,
        samples, clear());
  }

  /** Whether the held intervals' mean passes the bar of becoming true by {@code clearZ} standard errors of that mean. */
  private boolean clear() {
    if (guess != Guess.PASSES || perRequest != null || heldIntervals < 3 || Double.isInfinite(clearZ)) {
      return false;
    }
    double standardError = Math.sqrt(heldSquares / (heldIntervals - 1) / heldIntervals);
    double sign = hypothesis.comparison() == Comparison.ABOVE ? 1 : -1;
    return hypothesis.comparison().passes(heldMean - sign * clearZ * standardError, hypothesis.threshold(),
        1 + sign * hypothesis.hysteresis());
  }

  /** Welford's running mean and sum of squared deviations of the intervals' values while the guess holds. */
  private void hold(double intervalValue) {
    heldIntervals++;
    double delta = intervalValue - heldMean;
    heldMean += delta / heldIntervals;
    heldSquares += delta * (intervalValue - heldMean);
  }

  /** Where a point's interval starts: as the port said, else back to the previous point, at most one sampling interval. */
  private long from(ValueSeries.Point p, long previous) {
    if (p.fromMillis() >= 0) {
      return p.fromMillis();
    }
    long oneInterval = p.atMillis() - intervalMillis;
    return previous < 0 || previous >= p.atMillis() ? oneInterval : Math.max(previous, oneInterval);
  }

  private void count(ValueSeries.Point p, long from, List<ValueSeries.Point> per) {
    long span = p.atMillis() - from;
    long fresh = p.atMillis() - Math.max(from, coveredTo);
    coveredTo = Math.max(coveredTo, p.atMillis());
    samples++;
    weightedSum += p.value() * span;
    weight += span;
    value = weightedSum / weight;
    if (perRequest != null) {
      double denominator = average(per, coveredTo);
      value = denominator > 0 ? value / denominator : Double.NaN;
    }
    Guess now = Double.isNaN(value) ? Guess.NONE
        : hypothesis.comparison().passes(value, hypothesis.threshold(), factor()) ? Guess.PASSES : Guess.FAILS;
    double dt = Math.max(0, fresh) / 1000.0;
    if (now != guess) {
      guess = now;
      heldSeconds = now == Guess.NONE ? 0 : dt;
      heldIntervals = 0;
      heldMean = 0;
      heldSquares = 0;
    } else if (now != Guess.NONE) {
      heldSeconds += dt;
    }
    if (now != Guess.NONE && fresh > 0) {
      hold(p.value());
    }
  }

  /** The hysteresis constant for the next guess: after a pass, staying true is easier than becoming true. */
  private double factor() {
    double sign = hypothesis.comparison() == Comparison.ABOVE ? 1 : -1;
    return guess == Guess.PASSES ? 1 - sign * hypothesis.hysteresis() : 1 + sign * hypothesis.hysteresis();
  }

  /** The time-weighted average of the per metric over its counted data up to {@code upTo}. */
  private double average(List<ValueSeries.Point> per, long upTo) {
    double total = 0;
    double span = 0;
    long previous = -1;
    for (ValueSeries.Point p : per) {
      long from = Math.max(from(p, previous), countFromMillis);
      previous = Math.max(previous, p.atMillis());
      if (p.atMillis() > countFromMillis && p.atMillis() <= upTo) {
        total += p.value() * (p.atMillis() - from);
        span += p.atMillis() - from;
      }
    }
    return span == 0 ? Double.NaN : total / span;
  }
}
