package dev.bottlenose.consultant;

/**
 * The answer to {@link MeasurementPort#predict}: a cost (fraction of the target's CPU), not known yet,
 * or a failure (the metric or focus cannot be measured at all).
 */
public record CostPrediction(double cost, MeasurementFailure failure) {

  public static CostPrediction of(double cost) {
    if (!(cost >= 0)) {
      throw new IllegalArgumentException("predicted cost must be >= 0, is " + cost);
    }
    return new CostPrediction(cost, null);
  }

  public static CostPrediction pending() {
    return new CostPrediction(Double.NaN, null);
  }

  public static CostPrediction failed(MeasurementFailure failure) {
    return new CostPrediction(Double.NaN, failure);
  }

  public boolean isPending() {
    return failure == null && Double.isNaN(cost);
  }
}
