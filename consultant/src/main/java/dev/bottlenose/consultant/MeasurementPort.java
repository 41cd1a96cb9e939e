package dev.bottlenose.consultant;

/**
 * Where a search gets its measurements: the seam between the consultant and whatever measures (the
 * daemons over the event bus, or an in-process driver in tests). Calls come from the search's thread;
 * the sink may be called from any thread.
 */
public interface MeasurementPort {

  /**
   * The predicted cost of a request as a fraction of the target's CPU. May answer {@link
   * CostPrediction#pending()} while the answer is being fetched: the search asks again later.
   */
  CostPrediction predict(MetricRequest request);

  /**
   * Starts measuring; values and failures for the returned handle go to {@code sink}. Must not block
   * on the target: a failure found later is reported through {@link MeasurementSink#failed}.
   */
  MeasurementHandle request(MetricRequest request, double predictedCost, MeasurementSink sink);

  /** Stops measuring and removes the instrumentation behind the handle. Releasing twice is harmless. */
  void release(MeasurementHandle handle);
}
