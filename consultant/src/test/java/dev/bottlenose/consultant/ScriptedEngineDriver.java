package dev.bottlenose.consultant;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * An in-process, deterministic driver for the search engine in unit tests: a manual clock and a
 * {@link MeasurementPort} that replays a scripted program's values (value per request, cost per
 * request). It is not a stand-in for the daemon: end-to-end tests use real targets and daemons.
 */
final class ScriptedEngineDriver implements MeasurementPort, InstantSource {
  static final long INTERVAL_MILLIS = 1000;

  private final ToDoubleFunction<MetricRequest> values;
  private final ToDoubleFunction<MetricRequest> costs;
  private final Map<Long, Live> live = new LinkedHashMap<>();
  private final List<MetricRequest> requested = new ArrayList<>();
  private final Map<String, MeasurementFailure> failing = new LinkedHashMap<>();
  private final Map<String, MeasurementFailure> failingPredictions = new LinkedHashMap<>();
  private long now = 1_700_000_000_000L;
  private long nextHandle = 1;
  private double sideCost;
  private double attached = Double.NaN;
  private double observedFactor = 1;
  private long pendingUntil;
  private String throwing;

  private record Live(MeasurementHandle handle, MeasurementSink sink) {}

  ScriptedEngineDriver(ToDoubleFunction<MetricRequest> values, ToDoubleFunction<MetricRequest> costs) {
    this.values = values;
    this.costs = costs;
  }

  /** Requests for {@code metric} fail with this failure. */
  ScriptedEngineDriver failing(String metric, MeasurementFailure failure) {
    failing.put(metric, failure);
    return this;
  }

  /** Measurements cost {@code factor} times what they were predicted to. */
  ScriptedEngineDriver observedFactor(double factor) {
    observedFactor = factor;
    return this;
  }

  void sideCost(double fraction) {
    sideCost = fraction;
  }

  /** Being attached costs {@code fraction} of the target's CPU at rest (told with every value). */
  ScriptedEngineDriver attached(double fraction) {
    attached = fraction;
    return this;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(now);
  }

  /** Cost predictions answer "pending" until the clock reaches {@code millis}. */
  ScriptedEngineDriver pendingUntil(long millis) {
    pendingUntil = millis;
    return this;
  }

  @Override
  public CostPrediction predict(MetricRequest request) {
    if (now < pendingUntil) {
      return CostPrediction.pending();
    }
    MeasurementFailure f = failingPredictions.get(request.metric());
    return f != null ? CostPrediction.failed(f) : CostPrediction.of(costs.applyAsDouble(request));
  }

  /** Cost predictions for {@code metric} fail with this failure (the metric compiler refused it). */
  ScriptedEngineDriver failingPrediction(String metric, MeasurementFailure failure) {
    failingPredictions.put(metric, failure);
    return this;
  }

  /** Requests for {@code metric} throw, as a port whose connection broke would. */
  ScriptedEngineDriver throwingOn(String metric) {
    throwing = metric;
    return this;
  }

  @Override
  public MeasurementHandle request(MetricRequest request, double predictedCost, MeasurementSink sink) {
    if (request.metric().equals(throwing)) {
      throw new IllegalStateException("event bus closed");
    }
    MeasurementHandle h = new MeasurementHandle(nextHandle++, request);
    requested.add(request);
    MeasurementFailure f = failing.get(request.metric());
    if (f != null) {
      sink.failed(h, f);
    } else {
      live.put(h.id(), new Live(h, sink));
    }
    return h;
  }

  @Override
  public void release(MeasurementHandle handle) {
    live.remove(handle.id());
  }

  /** One sampling interval: the clock moves on, every live measurement delivers, the search advances. */
  void tick(Search search) {
    now += INTERVAL_MILLIS;
    for (Live l : List.copyOf(live.values())) {
      l.sink().value(l.handle(), now, values.applyAsDouble(l.handle().request()), observedCost(l.handle().request()));
      l.sink().sideCost(now, sideCost);
      if (!Double.isNaN(attached)) {
        l.sink().attached(now, attached);
      }
    }
    search.advance();
  }

  /** Ticks until the search ends or {@code maxTicks} passed; returns the ticks taken. */
  int runToEnd(Search search, int maxTicks) {
    int ticks = 0;
    while (!search.isFinished() && ticks < maxTicks) {
      tick(search);
      ticks++;
    }
    return ticks;
  }

  List<MetricRequest> live() {
    return live.values().stream().map(l -> l.handle().request()).toList();
  }

  List<MetricRequest> requested() {
    return List.copyOf(requested);
  }

  double liveCost() {
    return sideCost + live.values().stream().mapToDouble(l -> observedCost(l.handle().request())).sum();
  }

  private double observedCost(MetricRequest r) {
    return costs.applyAsDouble(r) * observedFactor;
  }

  long now() {
    return now;
  }
}
