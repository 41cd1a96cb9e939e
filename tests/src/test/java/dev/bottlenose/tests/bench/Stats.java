package dev.bottlenose.tests.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Median and range of a small sample, and where the median would lie were the sample drawn again: the 2.5th
 * and 97.5th percentiles of the medians of {@value #RESAMPLES} resamples with replacement (a percentile
 * bootstrap, seeded, so that a summary reads the same every time).
 */
record Stats(double median, double min, double max, int n, double medianLow, double medianHigh) {
  static final int RESAMPLES = 10_000;

  static Stats of(List<Double> values) {
    if (values.isEmpty()) {
      return new Stats(Double.NaN, Double.NaN, Double.NaN, 0, Double.NaN, Double.NaN);
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    SplittableRandom random = new SplittableRandom(n);
    double[] medians = new double[RESAMPLES];
    double[] draw = new double[n];
    for (int r = 0; r < RESAMPLES; r++) {
      for (int i = 0; i < n; i++) {
        draw[i] = sorted[random.nextInt(n)];
      }
      Arrays.sort(draw);
      medians[r] = median(draw);
    }
    Arrays.sort(medians);
    return new Stats(median(sorted), sorted[0], sorted[n - 1], n, medians[(int) (0.025 * RESAMPLES)],
        medians[(int) (0.975 * RESAMPLES) - 1]);
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** The median's 95% interval as percentages: {@code "+0.3..+2.0%"}. */
  String medianInterval() {
    return n == 0 ? "n/a" : String.format(Locale.ROOT, "%+.1f..%+.1f%%", medianLow * 100, medianHigh * 100);
  }

  /** As percentages: {@code "+1.2% (-0.3..+2.5)"}. */
  String percent() {
    return n == 0 ? "n/a"
        : String.format(Locale.ROOT, "%+.1f%% (%+.1f..%+.1f)", median * 100, min * 100, max * 100);
  }

  /** {@code "12.3 (11.0..14.2)"} with the given format. */
  String plain(String format) {
    return n == 0 ? "n/a" : String.format(format + " (" + format + ".." + format + ")", median, min, max);
  }
}
