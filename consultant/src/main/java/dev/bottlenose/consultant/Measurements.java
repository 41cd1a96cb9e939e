package dev.bottlenose.consultant;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The running measurements of one search, shared between nodes that need the same request, and
 * everything they delivered. The sink side may be called from any thread.
 */
final class Measurements implements MeasurementSink {
  private final MeasurementPort port;
  private final Map<MetricRequest, Running> running = new HashMap<>();
  private final Map<Long, Running> byHandle = new HashMap<>();
  private final Map<MetricRequest, ValueSeries> series = new LinkedHashMap<>();
  private final Map<Long, MeasurementFailure> earlyFailures = new HashMap<>();
  private double sideCost;
  private double recompiling;
  private double attached;
  private double daemon = Double.NaN;
  private double searcher = Double.NaN;
  /** The targets' JIT compiling on the tool's behalf, and their CPU, summed over the samples that told both. */
  private long toolJitNanos = -1;
  private long toolJitProcessNanos;
  private volatile ValueSeries.Listener listener;

  Measurements(MeasurementPort port) {
    this.port = port;
  }

  private static final class Running {
    final MeasurementHandle handle;
    int users;
    MeasurementFailure failure;
    double lastCost = Double.NaN;

    Running(MeasurementHandle handle) {
      this.handle = handle;
    }
  }

  /** True if the request is measured already (so it costs nothing more). */
  synchronized boolean isRunning(MetricRequest request) {
    return running.containsKey(request);
  }

  void acquire(MetricRequest request, double predictedCost) {
    synchronized (this) {
      Running r = running.get(request);
      if (r != null) {
        r.users++;
        return;
      }
      series.computeIfAbsent(request, q -> {
        if (listener != null) {
          listener.started(q);
        }
        return new ValueSeries(q, new ArrayList<>());
      });
    }
    MeasurementHandle handle = port.request(request, predictedCost, this);
    synchronized (this) {
      Running r = new Running(handle);
      r.users = 1;
      r.failure = earlyFailures.remove(handle.id());
      running.put(request, r);
      byHandle.putIfAbsent(handle.id(), r);
    }
  }

  void release(MetricRequest request) {
    MeasurementHandle toRelease = null;
    synchronized (this) {
      Running r = running.get(request);
      if (r != null && --r.users == 0) {
        running.remove(request);
        byHandle.remove(r.handle.id());
        toRelease = r.handle;
      }
    }
    if (toRelease != null) {
      port.release(toRelease);
    }
  }

  void releaseAll() {
    List<MeasurementHandle> all;
    synchronized (this) {
      all = running.values().stream().map(r -> r.handle).toList();
      running.clear();
      byHandle.clear();
    }
    all.forEach(port::release);
  }

  synchronized List<ValueSeries.Point> samples(MetricRequest request) {
    ValueSeries s = series.get(request);
    return s == null ? List.of() : List.copyOf(s.points());
  }

  synchronized MeasurementFailure failure(MetricRequest request) {
    Running r = running.get(request);
    return r == null ? null : r.failure;
  }

  /** The last observed cost of a running request shared by its users, NaN before the first value. */
  synchronized double costShare(MetricRequest request) {
    Running r = running.get(request);
    return r == null ? 0 : r.lastCost / r.users;
  }

  synchronized double sideCost() {
    return sideCost;
  }

  synchronized double recompiling() {
    return recompiling;
  }

  synchronized double attached() {
    return attached;
  }

  synchronized double daemon() {
    return daemon;
  }

  synchronized double searcher() {
    return searcher;
  }

  /** Seconds the targets' JIT has spent compiling on the tool's behalf since the attach; NaN while none has told. */
  synchronized double toolJitSeconds() {
    return toolJitNanos < 0 ? Double.NaN : toolJitNanos / 1e9;
  }

  /** {@link #toolJitSeconds} as a fraction of the targets' CPU over the same samples; NaN while none has told. */
  synchronized double toolJitShare() {
    return toolJitNanos < 0 || toolJitProcessNanos <= 0 ? Double.NaN : (double) toolJitNanos / toolJitProcessNanos;
  }

  /** Told of every series started and value recorded from now on (under this object's lock: keep it short). */
  void listen(ValueSeries.Listener listener) {
    this.listener = listener;
  }

  synchronized List<ValueSeries> allSeries() {
    return series.values().stream().map(s -> new ValueSeries(s.request(), List.copyOf(s.points()))).toList();
  }

  @Override
  public void value(MeasurementHandle handle, long atMillis, double value, double observedCost) {
    value(handle, -1, atMillis, value, observedCost);
  }

  @Override
  public synchronized void value(MeasurementHandle handle, long fromMillis, long toMillis, double value, double observedCost) {
    Running r = byHandle.get(handle.id());
    if (r == null || Double.isNaN(value) || value < 0 || fromMillis >= toMillis) {
      return;
    }
    r.lastCost = observedCost;
    ValueSeries.Point point = new ValueSeries.Point(toMillis, value, observedCost, fromMillis);
    series.get(handle.request()).points().add(point);
    if (listener != null) {
      listener.value(handle.request(), point);
    }
  }

  @Override
  public synchronized void failed(MeasurementHandle handle, MeasurementFailure failure) {
    Running r = byHandle.get(handle.id());
    if (r != null) {
      r.failure = failure;
    } else {
      earlyFailures.put(handle.id(), failure);
    }
  }

  @Override
  public synchronized void sideCost(long atMillis, double fraction) {
    sideCost = fraction;
  }

  @Override
  public synchronized void recompiling(long atMillis, double fraction) {
    recompiling = Double.isNaN(fraction) ? 0 : fraction;
  }

  @Override
  public synchronized void attached(long atMillis, double fraction) {
    attached = Double.isNaN(fraction) ? attached : fraction;
  }

  @Override
  public synchronized void toolProcesses(long atMillis, double daemon, double searcher) {
    this.daemon = Double.isNaN(daemon) ? this.daemon : daemon;
    this.searcher = Double.isNaN(searcher) ? this.searcher : searcher;
  }

  @Override
  public synchronized void toolJit(long atMillis, long toolJitNanos, long processCpuNanos) {
    if (toolJitNanos < 0 || processCpuNanos < 0) {
      return;
    }
    this.toolJitNanos = Math.max(0, this.toolJitNanos) + toolJitNanos;
    toolJitProcessNanos += processCpuNanos;
  }
}
