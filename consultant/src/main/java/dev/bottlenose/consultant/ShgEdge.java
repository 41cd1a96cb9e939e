package dev.bottlenose.consultant;

import dev.bottlenose.model.Hierarchy;
import java.util.LinkedHashMap;
import java.util.Map;

/** A refinement edge of the search-history graph; {@code along} is the hierarchy of a where-refinement. */
public record ShgEdge(int from, int to, Axis axis, Hierarchy along, String reason) {

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("from", from);
    m.put("to", to);
    m.put("axis", axis.word());
    m.put("along", along == null ? null : along.rootName());
    m.put("reason", reason);
    return m;
  }

  static ShgEdge fromJson(Map<?, ?> m) {
    Object along = m.get("along");
    return new ShgEdge(
        ((Number) m.get("from")).intValue(),
        ((Number) m.get("to")).intValue(),
        Axis.valueOf(((String) m.get("axis")).toUpperCase(java.util.Locale.ROOT)),
        along == null ? null : Hierarchy.byRootName((String) along),
        (String) m.get("reason"));
  }
}
