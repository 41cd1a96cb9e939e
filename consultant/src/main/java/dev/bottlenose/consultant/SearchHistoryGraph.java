package dev.bottlenose.consultant;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * The search-history graph: nodes unique per (hypothesis, focus), why- and where-refinement edges. Every
 * change goes to the listeners as a {@link ShgEvent}. Thread-safe.
 */
public final class SearchHistoryGraph {
  private final String searchId;
  private final Map<Integer, ShgNode> nodes = new LinkedHashMap<>();
  private final Map<String, Integer> byKey = new HashMap<>();
  private final List<ShgEdge> edges = new ArrayList<>();
  private final List<ShgListener> listeners = new CopyOnWriteArrayList<>();

  public SearchHistoryGraph(String searchId) {
    this.searchId = searchId;
  }

  public String searchId() {
    return searchId;
  }

  public void addListener(ShgListener listener) {
    listeners.add(listener);
  }

  public void removeListener(ShgListener listener) {
    listeners.remove(listener);
  }

  /** Adds an untested node, or returns the existing one for this hypothesis and focus. */
  synchronized ShgNode add(Hypothesis h, Focus focus, Hierarchy along, double priority) {
    Integer existing = byKey.get(key(h.id(), focus));
    if (existing != null) {
      return nodes.get(existing);
    }
    ShgNode n = new ShgNode(nodes.size(), h.id(), focus, NodeState.UNTESTED, Double.NaN, h.isVirtual() ? Double.NaN : h.threshold(),
        0, 0, Double.NaN, Double.NaN, null, along, priority, null);
    put(n);
    return n;
  }

  private void put(ShgNode n) {
    nodes.put(n.id(), n);
    byKey.put(key(n.hypothesis(), n.focus()), n.id());
    emit(new ShgEvent.NodeAdded(searchId, n));
  }

  synchronized boolean addEdge(ShgEdge edge) {
    if (edges.stream().anyMatch(e -> e.from() == edge.from() && e.to() == edge.to())) {
      return false;
    }
    edges.add(edge);
    emit(new ShgEvent.EdgeAdded(searchId, edge));
    return true;
  }

  /** Replaces node {@code id} by {@code change} applied to it; emits only when something changed. */
  synchronized ShgNode update(int id, UnaryOperator<ShgNode> change) {
    ShgNode before = nodes.get(id);
    ShgNode after = change.apply(before);
    if (!after.equals(before)) {
      nodes.put(id, after);
      emit(new ShgEvent.NodeChanged(searchId, after));
    }
    return after;
  }

  /** Puts {@code n} in place of the node with its id (a replayed journal). */
  synchronized void restore(ShgNode n) {
    nodes.put(n.id(), n);
    byKey.put(key(n.hypothesis(), n.focus()), n.id());
  }

  /** Adds a replayed edge. */
  synchronized void restore(ShgEdge e) {
    if (edges.stream().noneMatch(x -> x.from() == e.from() && x.to() == e.to())) {
      edges.add(e);
    }
  }

  void ended(String reason) {
    emit(new ShgEvent.SearchEnded(searchId, reason));
  }

  void lockHolders(int held) {
    emit(new ShgEvent.LockHolders(searchId, held));
  }

  public synchronized ShgNode node(int id) {
    return nodes.get(id);
  }

  /** The node for this hypothesis and focus, or null. */
  public synchronized ShgNode find(String hypothesis, Focus focus) {
    Integer id = byKey.get(key(hypothesis, focus));
    return id == null ? null : nodes.get(id);
  }

  public synchronized List<ShgNode> nodes() {
    return List.copyOf(nodes.values());
  }

  public synchronized List<ShgEdge> edges() {
    return List.copyOf(edges);
  }

  /** The children of node {@code id}, in order of creation. */
  public synchronized List<ShgNode> children(int id) {
    List<ShgNode> list = new ArrayList<>();
    for (ShgEdge e : edges) {
      if (e.from() == id) {
        list.add(nodes.get(e.to()));
      }
    }
    return list;
  }

  /** True nodes none of whose children is true: the bottlenecks found. */
  public synchronized List<ShgNode> trueLeaves() {
    List<ShgNode> list = new ArrayList<>();
    for (ShgNode n : nodes.values()) {
      if (n.state() == NodeState.TRUE && !Double.isNaN(n.threshold())
          && children(n.id()).stream().noneMatch(c -> c.state() == NodeState.TRUE)) {
        list.add(n);
      }
    }
    return list;
  }

  public synchronized Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("searchId", searchId);
    m.put("nodes", nodes.values().stream().map(ShgNode::toJson).toList());
    m.put("edges", edges.stream().map(ShgEdge::toJson).toList());
    return m;
  }

  /** Reads the {@link #toJson} form back; throws IllegalArgumentException naming what is wrong. */
  public static SearchHistoryGraph fromJson(Object json) {
    try {
      Map<?, ?> m = (Map<?, ?>) json;
      SearchHistoryGraph g = new SearchHistoryGraph((String) m.get("searchId"));
      for (Object n : (List<?>) m.get("nodes")) {
        g.put(ShgNode.fromJson((Map<?, ?>) n));
      }
      for (Object e : (List<?>) m.get("edges")) {
        g.edges.add(ShgEdge.fromJson((Map<?, ?>) e));
      }
      return g;
    } catch (ClassCastException | NullPointerException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not a search-history graph: " + e.getMessage(), e);
    }
  }

  /**
   * The graph as an indented tree from node 0, one node per line: state, hypothesis, focus, and the value against
   * the threshold in the unit of the hypothesis as {@code hypotheses} has it ({@link Findings#valueText}: {@code true
   * cpu_bound <>  1.792 s per second (threshold 0.3)}). A node reached a second time is written once more with "(see
   * above)" and not expanded.
   */
  public synchronized String toText(HypothesisCatalog hypotheses) {
    StringBuilder sb = new StringBuilder();
    if (!nodes.isEmpty()) {
      text(nodes.values().iterator().next(), 0, new java.util.HashSet<>(), hypotheses, sb);
    }
    return sb.toString();
  }

  /** {@link #toText(HypothesisCatalog)} where the hypotheses are not at hand (a test's message): values without units. */
  public String toText() {
    return toText(null);
  }

  private void text(ShgNode n, int depth, Set<Integer> seen, HypothesisCatalog hypotheses, StringBuilder sb) {
    sb.append("  ".repeat(depth)).append(String.format(java.util.Locale.ROOT, "%-8s %s %s", n.state().word(), n.hypothesis(), n.focus()));
    if (!Double.isNaN(n.value())) {
      Hypothesis h = hypotheses == null ? null : hypotheses.get(n.hypothesis());
      sb.append("  ").append(Findings.valueText(h, n.value(), n.threshold()));
    }
    if (!seen.add(n.id())) {
      sb.append("  (see above)\n");
      return;
    }
    sb.append('\n');
    for (ShgNode c : children(n.id())) {
      text(c, depth + 1, seen, hypotheses, sb);
    }
  }

  /**
   * The graph in Graphviz DOT, nodes in their states' colours, values in the units of their hypotheses as {@code
   * hypotheses} has them, as {@link #toText(HypothesisCatalog)} writes them.
   */
  public synchronized String toDot(HypothesisCatalog hypotheses) {
    return Dot.write(this, hypotheses);
  }

  private void emit(ShgEvent e) {
    for (ShgListener l : listeners) {
      l.onEvent(e);
    }
  }

  private static String key(String hypothesis, Focus focus) {
    return hypothesis + "::" + focus;
  }
}
