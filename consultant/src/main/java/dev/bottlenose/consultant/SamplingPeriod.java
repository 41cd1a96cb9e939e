package dev.bottlenose.consultant;

/**
 * How often a search asks JFR to sample the threads while its {@code cpu_sample} sources are on. JFR's
 * sampler costs about the same at every period whatever the program does (on the benchmark's 2-vCPU
 * machine about 0.25 ms of CPU per period: 12 ms a second at 20 ms, 5 ms a second at 50 ms), so a search on
 * a small budget samples more slowly and waits longer for the same evidence:
 * {@code sampling.period_ms × max(1, sampling.full_rate_budget / budget.fraction)}, at most {@code
 * sampling.max_period_ms} (100 ms by default, the period discovery's call graph samples at while no search
 * runs).
 */
public final class SamplingPeriod {
  private SamplingPeriod() {
  }

  /** The period in milliseconds for a search with these settings; a bad setting is named. */
  public static long millis(Settings settings) {
    double base = positive(settings, "sampling.period_ms");
    double fullRate = positive(settings, "sampling.full_rate_budget");
    double max = positive(settings, "sampling.max_period_ms");
    double budget = positive(settings, "budget.fraction");
    if (max < base) {
      throw new IllegalArgumentException("sampling.max_period_ms (" + max + ") must be at least sampling.period_ms ("
          + base + ")");
    }
    return Math.round(Math.min(max, base * Math.max(1, fullRate / budget)));
  }

  private static double positive(Settings settings, String key) {
    double v = settings.number(key);
    if (!(v > 0)) {
      throw new IllegalArgumentException("setting " + key + " must be more than 0, is " + v);
    }
    return v;
  }
}
