package dev.bottlenose.tests.bench;

import java.util.List;

/** Median and range of a small sample. */
record Stats(double median, double min, double max, int n) {
  static Stats of(List<Double> values) {
    if (values.isEmpty()) {
      return new Stats(Double.NaN, Double.NaN, Double.NaN, 0);
    }
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    return new Stats(median, sorted.get(0), sorted.get(n - 1), n);
  }

  /** As percentages: {@code "+1.2% (-0.3..+2.5)"}. */
  String percent() {
    return n == 0 ? "n/a" : String.format("%+.1f%% (%+.1f..%+.1f)", median * 100, min * 100, max * 100);
  }

  /** {@code "12.3 (11.0..14.2)"} with the given format. */
  String plain(String format) {
    return n == 0 ? "n/a" : String.format(format + " (" + format + ".." + format + ")", median, min, max);
  }
}
