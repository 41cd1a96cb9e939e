package dev.bottlenose.consultant.bus;

import dev.bottlenose.consultant.MeasurementFailure;
import dev.bottlenose.consultant.MeasurementHandle;
import dev.bottlenose.consultant.MeasurementSink;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One measurement of a whole-program focus over several targets: the metric–focus pair is measured on
 * every daemon of the search (each a part), and the parts' values are combined as the metric combines
 * values across processes (sum, avg, min or max) over the data time every part has covered. The observed
 * cost is that of the part costing most, as a fraction of its own target's CPU. A part whose target does
 * not have the focus (code only one of the JVMs loaded) drops out while another part remains; any other
 * failure of a part is the failure of the whole.
 */
final class Combined implements MeasurementSink {
  private final MeasurementHandle handle;
  private final MeasurementSink sink;
  private final String combine;
  private final Map<Long, Part> parts = new LinkedHashMap<>();
  private long doneTo = Long.MIN_VALUE;
  private boolean failed;

  private record Stretch(long from, long to, double value, double cost) {}

  private static final class Part {
    final Deque<Stretch> stretches = new ArrayDeque<>();
    long lastTo = Long.MIN_VALUE;
  }

  Combined(MeasurementHandle handle, MeasurementSink sink, String combine) {
    this.handle = handle;
    this.sink = sink;
    this.combine = combine;
  }

  synchronized void add(MeasurementHandle part) {
    parts.put(part.id(), new Part());
  }

  /** A value without its interval covers the time since the part's previous value. */
  @Override
  public synchronized void value(MeasurementHandle part, long atMillis, double value, double observedCost) {
    Part p = parts.get(part.id());
    if (p != null && p.lastTo != Long.MIN_VALUE) {
      value(part, p.lastTo, atMillis, value, observedCost);
    } else if (p != null) {
      p.lastTo = atMillis;
    }
  }

  @Override
  public synchronized void value(MeasurementHandle part, long fromMillis, long toMillis, double value, double observedCost) {
    Part p = parts.get(part.id());
    if (p == null || failed || toMillis <= fromMillis || toMillis <= doneTo) {
      return;
    }
    p.stretches.add(new Stretch(fromMillis, toMillis, value, observedCost));
    p.lastTo = Math.max(p.lastTo, toMillis);
    emit();
  }

  @Override
  public void failed(MeasurementHandle part, MeasurementFailure failure) {
    synchronized (this) {
      if (failed || parts.remove(part.id()) == null) {
        return;
      }
      if (failure.kind() == MeasurementFailure.Kind.FOCUS_UNKNOWN && !parts.isEmpty()) {
        emit();
        return;
      }
      failed = true;
    }
    sink.failed(handle, failure);
  }

  @Override
  public void sideCost(long atMillis, double fraction) {
    sink.sideCost(atMillis, fraction);
  }

  /** Passes on the combined value over the data time every part has covered since the last one passed on. */
  private void emit() {
    if (parts.values().stream().anyMatch(p -> p.stretches.isEmpty())) {
      return;
    }
    long from = doneTo != Long.MIN_VALUE ? doneTo
        : parts.values().stream().mapToLong(p -> p.stretches.peekFirst().from()).max().orElseThrow();
    long to = parts.values().stream().mapToLong(p -> p.lastTo).min().orElseThrow();
    if (to <= from) {
      return;
    }
    List<Double> values = new ArrayList<>();
    double cost = Double.NaN;
    for (Part p : parts.values()) {
      double[] v = average(p, from, to);
      if (v == null) {
        continue;
      }
      values.add(v[0]);
      cost = Double.isNaN(cost) || v[1] > cost ? v[1] : cost;
    }
    doneTo = to;
    parts.values().forEach(p -> p.stretches.removeIf(s -> s.to() <= to));
    if (values.size() == parts.size()) {
      sink.value(handle, from, to, combined(values), cost);
    }
  }

  /** The part's time-weighted value and cost over [from, to], or null when no stretch of it overlaps. */
  private static double[] average(Part p, long from, long to) {
    double value = 0;
    double cost = 0;
    double costSpan = 0;
    long span = 0;
    for (Stretch s : p.stretches) {
      long overlap = Math.min(to, s.to()) - Math.max(from, s.from());
      if (overlap > 0) {
        value += s.value() * overlap;
        span += overlap;
        if (!Double.isNaN(s.cost())) {
          cost += s.cost() * overlap;
          costSpan += overlap;
        }
      }
    }
    return span == 0 ? null : new double[] {value / span, costSpan == 0 ? Double.NaN : cost / costSpan};
  }

  private double combined(List<Double> values) {
    return switch (combine) {
      case "avg" -> values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
      case "min" -> values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
      case "max" -> values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
      default -> values.stream().mapToDouble(Double::doubleValue).sum();
    };
  }
}
