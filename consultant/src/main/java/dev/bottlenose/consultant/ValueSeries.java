package dev.bottlenose.consultant;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every value one measurement delivered during a search: (time, value, observed cost[, from]) points. */
public record ValueSeries(MetricRequest request, List<Point> points) {

  /**
   * The interval from {@code fromMillis} to {@code atMillis} in the data's own time: the value and the
   * measurement's own cost (fraction of CPU). {@code fromMillis} is -1 when the port did not say where the
   * interval starts (then it is one sampling interval, or back to the previous point).
   */
  public record Point(long atMillis, double value, double cost, long fromMillis) {
    public Point(long atMillis, double value, double cost) {
      this(atMillis, value, cost, -1);
    }
  }

  /** Told of every series a search starts and of every value recorded in one. */
  public interface Listener {
    void started(MetricRequest request);

    void value(MetricRequest request, Point point);
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("request", request.toJson());
    m.put("points", points.stream().map(ValueSeries::pointJson).toList());
    return m;
  }

  static ValueSeries fromJson(Map<?, ?> m) {
    List<Point> points = ((List<?>) m.get("points")).stream().map(o -> {
      List<?> p = (List<?>) o;
      double cost = ((Number) p.get(2)).doubleValue();
      long from = p.size() > 3 ? ((Number) p.get(3)).longValue() : -1;
      return new Point(((Number) p.get(0)).longValue(), ((Number) p.get(1)).doubleValue(), cost < 0 ? Double.NaN : cost, from);
    }).toList();
    return new ValueSeries(MetricRequest.fromJson(m.get("request")), points);
  }

  private static List<Object> pointJson(Point p) {
    List<Object> row = new java.util.ArrayList<>(List.of(p.atMillis(), p.value(), Double.isNaN(p.cost()) ? -1.0 : p.cost()));
    if (p.fromMillis() >= 0) {
      row.add(p.fromMillis());
    }
    return row;
  }
}
