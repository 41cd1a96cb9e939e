package dev.bottlenose.tests.browser;

import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.SearchStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A saved search of an hour with more than 500 nodes, shaped like a real one: the four top-level
 * hypotheses, CPU-bound refined along /Code (packages, classes, methods: a few true at each level, the
 * rest false or unknown), and along /Threads, where every true method meets the main thread twice over
 * (a DAG: from the method along /Threads and from the thread along /Code). The graph is read by
 * {@link SavedSearch#fromJson} (the graph by {@link SearchHistoryGraph#fromJson}) and saved by {@link SearchStore}, as a search's own save would.
 */
final class LargeSearch {
  static final String MAIN_THREAD = "/Threads/main/main";
  private final List<Map<String, Object>> nodes = new ArrayList<>();
  private final List<Map<String, Object>> edges = new ArrayList<>();
  private final List<Map<String, Object>> series = new ArrayList<>();
  private final Random random = new Random(42);
  private final long start;
  private final long end;

  private LargeSearch(long start, long end) {
    this.start = start;
    this.end = end;
  }

  /** Saves the search as {@code id} in the store and returns it as reopened. */
  static SavedSearch save(SearchStore store, String id) throws IOException {
    long end = System.currentTimeMillis() - 60_000;
    LargeSearch s = new LargeSearch(end - 3_600_000, end);
    s.build();
    Map<String, Object> graph = new LinkedHashMap<>();
    graph.put("searchId", id);
    graph.put("nodes", s.nodes);
    graph.put("edges", s.edges);
    Map<String, Object> saved = new LinkedHashMap<>();
    saved.put("format", "bottlenose-search/1");
    saved.put("id", id);
    saved.put("startedAtMillis", s.start);
    saved.put("endedAtMillis", s.end);
    saved.put("endReason", "time limit");
    saved.put("settings", Map.of("budget.fraction", "0.05", "search.max_time_seconds", "3600"));
    saved.put("graph", graph);
    saved.put("series", s.series);
    store.save(SavedSearch.fromJson(saved));
    return store.open(id);
  }

  private void build() {
    int top = node("top", List.of(), "true", null, null, start);
    int cpu = why(top, "cpu_bound", List.of(), "true", 0.93, 0.30, 3600);
    why(top, "sync_wait", List.of(), "false", 0.02, 0.20, 3600);
    why(top, "io_wait", List.of(), "false", 0.01, 0.20, 3600);
    why(top, "memory_pressure", List.of(), "unknown", Double.NaN, 0.10, 3600);
    for (String h : List.of("method_call_overhead", "object_creation_overhead", "interpreted_time", "jit_compile_time", "class_load_time")) {
      why(cpu, h, List.of(), "false", 0.03, h.startsWith("jit") || h.startsWith("class") ? 0.05 : 0.10, 60);
    }
    int thread = where(cpu, List.of(MAIN_THREAD), "Threads", "true", 0.9);
    for (int p = 0; p < 12; p++) {
      String pkg = "/Code/com.acme.p" + p;
      boolean hotPackage = p < 5;
      int pn = where(cpu, List.of(pkg), "Code", hotPackage ? "true" : "false", hotPackage ? 0.4 : 0.01);
      if (!hotPackage) {
        continue;
      }
      for (int c = 0; c < 10; c++) {
        String cls = pkg + "/Class" + c;
        boolean hotClass = c < 4;
        int cn = where(pn, List.of(cls), "Code", hotClass ? "true" : c == 9 ? "unknown" : "false", hotClass ? 0.35 : 0.02);
        if (!hotClass) {
          continue;
        }
        for (int m = 0; m < 20; m++) {
          String method = cls + "/work" + m + "()V";
          boolean hotMethod = m == 0;
          int mn = where(cn, List.of(method), "Code", hotMethod ? "true" : m % 7 == 6 ? "stopped" : "false", hotMethod ? 0.33 : 0.01);
          if (hotMethod) {
            int both = where(mn, List.of(method, MAIN_THREAD), "Threads", "true", 0.32);
            edge(thread, both, "where", "Code");
            why(mn, "method_call_overhead", List.of(method), "false", 0.02, 0.10, 20);
          }
        }
      }
    }
  }

  private int why(int parent, String hypothesis, List<String> focus, String state, double value, double threshold, int seconds) {
    int id = node(hypothesis, focus, state, value, threshold, start + random.nextInt(60_000));
    edge(parent, id, "why", null);
    values(hypothesis, focus, value, seconds);
    return id;
  }

  private int where(int parent, List<String> focus, String along, String state, double value) {
    int id = node("cpu_bound", focus, state, value, 0.30, start + 60_000 + random.nextInt(3_000_000));
    edge(parent, id, "where", along);
    values("cpu_bound", focus, value, 40);
    return id;
  }

  private int node(String hypothesis, List<String> focus, String state, Double value, Double threshold, long tested) {
    Map<String, Object> n = new LinkedHashMap<>();
    int id = nodes.size();
    n.put("id", id);
    n.put("hypothesis", hypothesis);
    n.put("focus", focus);
    n.put("state", state);
    n.put("value", value == null || value.isNaN() ? null : value);
    n.put("threshold", threshold);
    n.put("testedSinceMillis", tested);
    n.put("concludedAtMillis", state.equals("untested") ? 0 : tested + 7_000);
    n.put("predictedCost", 0.001);
    n.put("observedCost", 0.0012);
    n.put("reason", value == null ? "a child is true" : state.equals("true")
        ? String.format(java.util.Locale.ROOT, "%.3f > %.2f for 6 s", value, threshold) : "decided " + state);
    n.put("along", null);
    n.put("priority", 10.0);
    nodes.add(n);
    return id;
  }

  private void edge(int from, int to, String axis, String along) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("from", from);
    e.put("to", to);
    e.put("axis", axis);
    e.put("along", along);
    e.put("reason", axis + " refinement");
    edges.add(e);
    if (along != null) {
      nodes.get(to).put("along", along);
    }
  }

  /** One value a second for {@code seconds}, ending at the search's end, around {@code level}. */
  private void values(String hypothesis, List<String> focus, double level, int seconds) {
    if (Double.isNaN(level)) {
      return;
    }
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("metric", metricOf(hypothesis));
    request.put("focus", focus);
    request.put("mode", "inclusive");
    List<List<Object>> points = new ArrayList<>(seconds);
    for (int i = 0; i < seconds; i++) {
      double wave = level * (1 + 0.2 * Math.sin(i / 30.0)) + random.nextGaussian() * level * 0.05;
      points.add(List.of(end - (seconds - i) * 1000L, Math.max(0, wave), 0.0005));
    }
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("request", request);
    s.put("points", points);
    series.add(s);
  }

  private static String metricOf(String hypothesis) {
    return switch (hypothesis) {
      case "cpu_bound" -> "cpu_inclusive";
      case "memory_pressure" -> "gc_time";
      default -> hypothesis;
    };
  }
}
