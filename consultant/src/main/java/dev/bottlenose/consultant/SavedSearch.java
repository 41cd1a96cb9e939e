package dev.bottlenose.consultant;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A finished (or interrupted) search as kept on disk: settings, graph, values over time. Its JSON form carries
 * its findings too, for whoever reads the file; they are made again from the graph when it is read back.
 */
public record SavedSearch(
    String id, long startedAtMillis, long endedAtMillis, String endReason, Map<String, String> settings,
    SearchHistoryGraph graph, List<ValueSeries> series) {

  public SavedSearch {
    settings = Map.copyOf(settings);
    series = List.copyOf(series);
  }

  /**
   * The hypotheses it searched with: the built-ins with its settings' thresholds and declarations; the built-ins
   * as they are now if its settings no longer make a catalog (a setting since removed).
   */
  public HypothesisCatalog hypotheses() {
    try {
      return HypothesisCatalog.of(Settings.defaults().with(settings, "saved search " + id));
    } catch (IllegalArgumentException e) {
      return HypothesisCatalog.of(Settings.defaults());
    }
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("format", "bottlenose-search/1");
    m.put("id", id);
    m.put("startedAtMillis", startedAtMillis);
    m.put("endedAtMillis", endedAtMillis);
    m.put("endReason", endReason);
    m.put("settings", new java.util.TreeMap<>(settings));
    m.put("findings", Findings.of(this).stream().map(Findings.Finding::toJson).toList());
    m.put("graph", graph.toJson());
    m.put("series", series.stream().map(ValueSeries::toJson).toList());
    return m;
  }

  /** Reads {@link #toJson} back; throws IllegalArgumentException naming what is wrong. */
  public static SavedSearch fromJson(Object json) {
    if (!(json instanceof Map<?, ?> m) || !"bottlenose-search/1".equals(m.get("format"))) {
      throw new IllegalArgumentException("not a saved Bottlenose search (format bottlenose-search/1)");
    }
    try {
      Map<String, String> settings = new LinkedHashMap<>();
      ((Map<?, ?>) m.get("settings")).forEach((k, v) -> settings.put((String) k, (String) v));
      return new SavedSearch(
          (String) m.get("id"),
          ((Number) m.get("startedAtMillis")).longValue(),
          ((Number) m.get("endedAtMillis")).longValue(),
          (String) m.get("endReason"),
          settings,
          SearchHistoryGraph.fromJson(m.get("graph")),
          ((List<?>) m.get("series")).stream().map(s -> ValueSeries.fromJson((Map<?, ?>) s)).toList());
    } catch (ClassCastException | NullPointerException e) {
      throw new IllegalArgumentException("saved search " + m.get("id") + " is malformed: " + e.getMessage(), e);
    }
  }
}
