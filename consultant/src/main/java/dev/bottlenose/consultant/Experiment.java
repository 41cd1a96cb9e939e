package dev.bottlenose.consultant;

import dev.bottlenose.consultant.rules.Evidence;
import dev.bottlenose.consultant.rules.Guess;
import java.util.ArrayList;
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
 *
 * <p>A node measured in bursts is {@link #pause paused} between them and {@link #resume resumed}: its evidence
 * is kept; each burst's first {@code minObservation} is left out again, data from outside the bursts is not
 * counted, and the time it has been tested is the time it was measured.
 */
final class Experiment {
  private final int nodeId;
  private final Hypothesis hypothesis;
  private final MetricRequest valueRequest;
  private final MetricRequest perRequest;
  private final long startedAtMillis;
  private final long minObservationMillis;
  private final long intervalMillis;
  /** The stretches whose data count: from the end of each start's minimum observation to its pause (open: MAX_VALUE). */
  private final List<long[]> windows = new ArrayList<>();
  private long resumedAtMillis;
  private long measuredMillisBefore;
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
    this.minObservationMillis = minObservationMillis;
    this.intervalMillis = intervalMillis;
    this.coveredTo = startedAtMillis + minObservationMillis;
    resume(startedAtMillis);
  }

  /** Its measurement stopped at {@code nowMillis} (a burst ended); data after that is not counted. */
  void pause(long nowMillis) {
    if (!isPaused()) {
      measuredMillisBefore += nowMillis - resumedAtMillis;
      current()[1] = nowMillis;
    }
  }

  /** Its measurement started again at {@code nowMillis}: data counts again after the minimum observation time. */
  void resume(long nowMillis) {
    resumedAtMillis = nowMillis;
    long countFrom = nowMillis + minObservationMillis;
    coveredTo = Math.max(coveredTo, countFrom);
    windows.add(new long[] {countFrom, Long.MAX_VALUE});
  }

  private long[] current() {
    return windows.get(windows.size() - 1);
  }

  boolean isPaused() {
    return current()[1] != Long.MAX_VALUE;
  }

  /** How long it has been measured (every burst's time, the minimum observation included), in seconds. */
  double measuredSeconds(long nowMillis) {
    return (measuredMillisBefore + (isPaused() ? 0 : nowMillis - resumedAtMillis)) / 1000.0;
  }

  /** Where the stretch that data ending at {@code atMillis} was measured in starts its counting; -1 if in none. */
  private long stretchFrom(long atMillis) {
    for (long[] w : windows) {
      if (atMillis > w[0] && atMillis <= w[1]) {
        return w[0];
      }
    }
    return -1;
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

  /** The guess its counted values make now ({@link Guess#NONE} before any counted). */
  Guess guess() {
    return guess;
  }

  /** How long its guess has held, in seconds of counted data. */
  double heldSeconds() {
    return heldSeconds;
  }

  /** Counts the values that arrived since the last call and returns the evidence as of {@code nowMillis}. */
  Evidence evaluate(long nowMillis, Measurements measurements) {
    List<ValueSeries.Point> points = measurements.samples(valueRequest);
    List<ValueSeries.Point> per = perRequest == null ? List.of() : measurements.samples(perRequest);
    for (; taken < points.size(); taken++) {
      ValueSeries.Point p = points.get(taken);
      long from = from(p, previousAt);
      previousAt = Math.max(previousAt, p.atMillis());
      long stretch = stretchFrom(p.atMillis());
      if (stretch >= 0) {
        count(p, Math.max(from, stretch), per);
      }
    }
    return new Evidence(nodeId, guess, value, hypothesis.threshold(), heldSeconds, measuredSeconds(nowMillis),
        samples, clear(), decisive());
  }

  /**
   * Whether the value is on its guess's side of the threshold: a pass at or past the bar of becoming true,
   * a fail not past the threshold ({@link Evidence#decisive}).
   */
  private boolean decisive() {
    return switch (guess) {
      case PASSES -> hypothesis.comparison().passes(value, hypothesis.becomingTrueBar(), 1);
      case FAILS -> !hypothesis.comparison().passes(value, hypothesis.threshold(), 1);
      case NONE -> false;
    };
  }

  /** Whether the held intervals' mean passes the bar of becoming true by {@code clearZ} standard errors of that mean. */
  private boolean clear() {
    if (guess != Guess.PASSES || perRequest != null || heldIntervals < 3 || Double.isInfinite(clearZ)) {
      return false;
    }
    double standardError = Math.sqrt(heldSquares / (heldIntervals - 1) / heldIntervals);
    double sign = hypothesis.comparison() == Comparison.ABOVE ? 1 : -1;
    return hypothesis.comparison().passes(heldMean - sign * clearZ * standardError, hypothesis.becomingTrueBar(), 1);
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
      long stretch = stretchFrom(p.atMillis());
      long from = Math.max(from(p, previous), stretch);
      previous = Math.max(previous, p.atMillis());
      if (stretch >= 0 && p.atMillis() <= upTo) {
        total += p.value() * (p.atMillis() - from);
        span += p.atMillis() - from;
      }
    }
    return span == 0 ? Double.NaN : total / span;
  }
}
