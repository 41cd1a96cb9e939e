package dev.bottlenose.web.render;

import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.model.json.Json;
import java.util.List;
import java.util.Map;

/** A small finished search-history graph: CPU-bound refined to a hot method, sync waiting false. */
public final class Graphs {
  public static final String HOT = "/Code/com.acme/Hot/spin()V";

  private Graphs() {}

  public static SearchHistoryGraph cpuHot(String searchId) {
    String json = """
        {"searchId": "%s",
         "nodes": [
           %s, %s, %s, %s, %s],
         "edges": [
           {"from": 0, "to": 1, "axis": "why", "along": null, "reason": "top-level"},
           {"from": 0, "to": 4, "axis": "why", "along": null, "reason": "top-level"},
           {"from": 1, "to": 2, "axis": "where", "along": "Code", "reason": "refine"},
           {"from": 2, "to": 3, "axis": "where", "along": "Code", "reason": "refine"}]}
        """.formatted(searchId,
        node(0, "top", "[]", "true", "null", "null"),
        node(1, "cpu_bound", "[]", "true", "0.9", "0.3"),
        node(2, "cpu_bound", "[\"/Code/com.acme\"]", "true", "0.85", "0.3"),
        node(3, "cpu_bound", "[\"" + HOT + "\"]", "true", "0.8", "0.3"),
        node(4, "sync_wait", "[]", "false", "0.01", "0.2"));
    return SearchHistoryGraph.fromJson(Json.parse(json));
  }

  public static SavedSearch saved(String searchId, String daemons) {
    return new SavedSearch(searchId, 1_000_000L, 1_060_000L, "converged: nothing left to test",
        Map.of("budget.fraction", "0.05", "web.daemons", daemons), cpuHot(searchId), List.of());
  }

  private static String node(int id, String hypothesis, String focus, String state, String value, String threshold) {
    return """
        {"id": %d, "hypothesis": "%s", "focus": %s, "state": "%s", "value": %s, "threshold": %s,
         "testedSinceMillis": 1000000, "concludedAtMillis": 1007000, "predictedCost": 0.001, "observedCost": 0.002,
         "reason": "held for 6.0 s", "along": null, "priority": 5}""".formatted(id, hypothesis, focus, state, value, threshold);
  }
}
