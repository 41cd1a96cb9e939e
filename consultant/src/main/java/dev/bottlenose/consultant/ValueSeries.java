package dev.bottlenose.consultant;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every value one measurement delivered during a search: (time, value, observed cost) points. */
public record ValueSeries(MetricRequest request, List<Point> points) {

  /** The interval ending at {@code atMillis}: the value and the measurement's own cost (fraction of CPU). */
  public record Point(long atMillis, double value, double cost) {}

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("request", request.toJson());
    m.put("points", points.stream().map(p -> List.of(p.atMillis(), p.value(), Double.isNaN(p.cost()) ? -1.0 : p.cost())).toList());
    return m;
  }

  static ValueSeries fromJson(Map<?, ?> m) {
    List<Point> points = ((List<?>) m.get("points")).stream().map(o -> {
      List<?> p = (List<?>) o;
      double cost = ((Number) p.get(2)).doubleValue();
      return new Point(((Number) p.get(0)).longValue(), ((Number) p.get(1)).doubleValue(), cost < 0 ? Double.NaN : cost);
    }).toList();
    return new ValueSeries(MetricRequest.fromJson(m.get("request")), points);
  }
}
