package dev.bottlenose.consultant;

/**
 * The answer to {@link MeasurementPort#predict}: a cost (fraction of the target's CPU while the measurement
 * runs) and a one-time cost of starting and stopping it ({@code once}: fraction of the target's CPU ×
 * seconds, e.g. the JIT compiling again what inserting and removing probes throws away), not known yet,
 * or a failure (the metric or focus cannot be measured at all).
 */
public record CostPrediction(double cost, double once, MeasurementFailure failure) {

  public static CostPrediction of(double cost) {
    return of(cost, 0);
  }

  public static CostPrediction of(double cost, double once) {
    if (!(cost >= 0)) {
      throw new IllegalArgumentException("predicted cost must be >= 0, is " + cost);
    }
    if (!(once >= 0)) {
      throw new IllegalArgumentException("predicted one-time cost must be >= 0, is " + once);
    }
    return new CostPrediction(cost, once, null);
  }

  public static CostPrediction pending() {
    return new CostPrediction(Double.NaN, Double.NaN, null);
  }

  public static CostPrediction failed(MeasurementFailure failure) {
    return new CostPrediction(Double.NaN, Double.NaN, failure);
  }

  public boolean isPending() {
    return failure == null && Double.isNaN(cost);
  }
}
