package dev.bottlenose.web.render;

import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.Settings;
import dev.bottlenose.model.json.Json;
import java.util.List;
import java.util.Map;

/** A small finished search-history graph: CPU-bound refined to a hot method, sync waiting false. */
public final class Graphs {
  public static final String HOT = "/Code/com.acme/Hot/spin()V";
  /** The hypotheses these graphs were searched with: the built-ins. */
  public static final HypothesisCatalog HYPOTHESES = HypothesisCatalog.of(Settings.defaults());

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

  /**
   * A graph of more than 500 nodes shaped like a long search's (as the browser test's saved one): the top-level
   * hypotheses; CPU-bound true along /Code in 5 of 12 packages, 4 of 10 classes each, 1 of 20 methods each (the rest
   * false, unknown or stopped); the main thread true, and each hot method's node at the main thread reached from
   * the method and from the thread (a DAG), and method-call overhead false there.
   */
  public static SearchHistoryGraph large(String searchId) {
    List<String> nodes = new java.util.ArrayList<>();
    List<String> edges = new java.util.ArrayList<>();
    java.util.function.BiFunction<String, String[], Integer> add = (hypothesis, spec) -> {
      int id = nodes.size();
      nodes.add(node(id, hypothesis, spec[0], spec[1], spec[2], "0.3"));
      return id;
    };
    java.util.function.BiConsumer<Integer, Object[]> edge = (from, spec) -> edges.add(
        "{\"from\": %d, \"to\": %d, \"axis\": \"%s\", \"along\": %s, \"reason\": \"refine\"}".formatted(from, spec[0], spec[1],
            spec[1].equals("why") ? "null" : "\"" + spec[2] + "\""));
    int top = add.apply("top", new String[] {"[]", "true", "null"});
    int cpu = add.apply("cpu_bound", new String[] {"[]", "true", "0.9"});
    edge.accept(top, new Object[] {cpu, "why"});
    for (String h : List.of("sync_wait", "io_wait", "memory_pressure")) {
      edge.accept(top, new Object[] {add.apply(h, new String[] {"[]", "false", "0.01"}), "why"});
    }
    for (String h : List.of("method_call_overhead", "object_creation_overhead", "interpreted_time", "jit_compile_time", "class_load_time")) {
      edge.accept(cpu, new Object[] {add.apply(h, new String[] {"[]", "false", "0.02"}), "why"});
    }
    String main = "/Threads/main/main";
    int thread = add.apply("cpu_bound", new String[] {"[\"" + main + "\"]", "true", "0.9"});
    edge.accept(cpu, new Object[] {thread, "where", "Threads"});
    for (int p = 0; p < 12; p++) {
      String pkg = "/Code/com.acme.p" + p;
      int pn = add.apply("cpu_bound", new String[] {"[\"" + pkg + "\"]", p < 5 ? "true" : "false", "0.4"});
      edge.accept(cpu, new Object[] {pn, "where", "Code"});
      for (int c = 0; p < 5 && c < 10; c++) {
        String cls = pkg + "/Class" + c;
        int cn = add.apply("cpu_bound", new String[] {"[\"" + cls + "\"]", c < 4 ? "true" : c == 9 ? "unknown" : "false", "0.3"});
        edge.accept(pn, new Object[] {cn, "where", "Code"});
        for (int m = 0; c < 4 && m < 20; m++) {
          String method = cls + "/work" + m + "()V";
          int mn = add.apply("cpu_bound", new String[] {"[\"" + method + "\"]", m == 0 ? "true" : m % 7 == 6 ? "stopped" : "false", "0.3"});
          edge.accept(cn, new Object[] {mn, "where", "Code"});
          if (m == 0) {
            int both = add.apply("cpu_bound", new String[] {"[\"" + method + "\", \"" + main + "\"]", "true", "0.3"});
            edge.accept(mn, new Object[] {both, "where", "Threads"});
            edge.accept(thread, new Object[] {both, "where", "Code"});
            edge.accept(mn, new Object[] {add.apply("method_call_overhead", new String[] {"[\"" + method + "\"]", "false", "0.02"}), "why"});
          }
        }
      }
    }
    return SearchHistoryGraph.fromJson(Json.parse("{\"searchId\": \"%s\", \"nodes\": [%s], \"edges\": [%s]}".formatted(searchId,
        String.join(",\n", nodes), String.join(",\n", edges))));
  }

  private static String node(int id, String hypothesis, String focus, String state, String value, String threshold) {
    return """
        {"id": %d, "hypothesis": "%s", "focus": %s, "state": "%s", "value": %s, "threshold": %s,
         "testedSinceMillis": 1000000, "concludedAtMillis": 1007000, "predictedCost": 0.001, "observedCost": 0.002,
         "reason": "held for 6.0 s", "along": null, "priority": 5}""".formatted(id, hypothesis, focus, state, value, threshold);
  }
}
