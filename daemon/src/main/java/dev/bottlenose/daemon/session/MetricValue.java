package dev.bottlenose.daemon.session;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One enabled metric's value over one interval, with what measuring it costs: {@code predictedCost} is the
 * plan's cost model at the events per second its probes and sources saw, {@code observedCost} the
 * session's measured probe and agent cost as a share of the process's CPU (NaN when unknown). When the
 * interval could not be evaluated (an item had no reading yet) {@code value} is NaN and {@code error} says why.
 * {@code dataThroughMillis} is the time the events of its watched sources are counted through (JFR delivers
 * them about once a second, so the value's events are those delivered by then); -1 for a metric of probes only.
 */
public record MetricValue(long metricId, String metric, String focus, double value, String unit,
    double eventsPerSecond, double predictedCost, double observedCost, String error, long dataThroughMillis) {

  public boolean hasValue() {
    return !Double.isNaN(value);
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("metricId", metricId);
    m.put("metric", metric);
    m.put("focus", focus);
    m.put("value", finite(value));
    m.put("unit", unit);
    m.put("eventsPerSecond", finite(eventsPerSecond));
    m.put("predictedCost", finite(predictedCost));
    m.put("observedCost", finite(observedCost));
    if (error != null) {
      m.put("error", error);
    }
    if (dataThroughMillis >= 0) {
      m.put("dataThroughMillis", dataThroughMillis);
    }
    return m;
  }

  private static Double finite(double d) {
    return Double.isFinite(d) ? d : null;
  }
}
