package dev.bottlenose.web.render;

import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.ShgEdge;
import dev.bottlenose.consultant.ShgNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A layered layout of a search-history graph: a node's layer is its depth from the top node (the
 * shortest path along refinement edges; nodes no edge reaches go to layer 0); within a layer nodes are
 * ordered by the position of their first parent, then by id. Nodes are {@link #WIDTH} x {@link
 * #HEIGHT}, {@link #GAP_X} and {@link #GAP_Y} apart.
 */
public final class ShgLayout {
  public static final int WIDTH = 200;
  public static final int HEIGHT = 54;
  public static final int GAP_X = 16;
  public static final int GAP_Y = 50;
  public static final int MARGIN = 10;

  /** Where one node's box goes (top-left corner). */
  public record Box(ShgNode node, int layer, int x, int y) {}

  private final Map<Integer, Box> boxes;
  private final int width;
  private final int height;

  private ShgLayout(Map<Integer, Box> boxes, int width, int height) {
    this.boxes = boxes;
    this.width = width;
    this.height = height;
  }

  public static ShgLayout of(SearchHistoryGraph graph) {
    List<ShgNode> nodes = graph.nodes();
    List<ShgEdge> edges = graph.edges();
    Map<Integer, Integer> layer = layers(nodes, edges);
    Map<Integer, Integer> firstParent = new HashMap<>();
    for (ShgEdge e : edges) {
      firstParent.putIfAbsent(e.to(), e.from());
    }
    Map<Integer, List<ShgNode>> byLayer = new java.util.TreeMap<>();
    for (ShgNode n : nodes) {
      byLayer.computeIfAbsent(layer.get(n.id()), k -> new ArrayList<>()).add(n);
    }
    Map<Integer, Integer> order = new HashMap<>();
    Map<Integer, Box> boxes = new LinkedHashMap<>();
    int columns = 1;
    for (Map.Entry<Integer, List<ShgNode>> e : byLayer.entrySet()) {
      List<ShgNode> row = e.getValue();
      row.sort(Comparator.comparingInt((ShgNode n) -> order.getOrDefault(firstParent.getOrDefault(n.id(), -1), -1))
          .thenComparingInt(ShgNode::id));
      for (int i = 0; i < row.size(); i++) {
        ShgNode n = row.get(i);
        order.put(n.id(), i);
        boxes.put(n.id(), new Box(n, e.getKey(), MARGIN + i * (WIDTH + GAP_X), MARGIN + e.getKey() * (HEIGHT + GAP_Y)));
      }
      columns = Math.max(columns, row.size());
    }
    int layers = byLayer.isEmpty() ? 1 : byLayer.keySet().stream().max(Integer::compare).orElse(0) + 1;
    return new ShgLayout(boxes, 2 * MARGIN + columns * (WIDTH + GAP_X) - GAP_X, 2 * MARGIN + layers * (HEIGHT + GAP_Y) - GAP_Y);
  }

  private static Map<Integer, Integer> layers(List<ShgNode> nodes, List<ShgEdge> edges) {
    Map<Integer, List<Integer>> children = new HashMap<>();
    edges.forEach(e -> children.computeIfAbsent(e.from(), k -> new ArrayList<>()).add(e.to()));
    Map<Integer, Integer> layer = new HashMap<>();
    Deque<Integer> queue = new ArrayDeque<>();
    if (!nodes.isEmpty()) {
      layer.put(nodes.get(0).id(), 0);
      queue.add(nodes.get(0).id());
    }
    while (!queue.isEmpty()) {
      int id = queue.poll();
      for (int c : children.getOrDefault(id, List.of())) {
        if (layer.putIfAbsent(c, layer.get(id) + 1) == null) {
          queue.add(c);
        }
      }
    }
    nodes.forEach(n -> layer.putIfAbsent(n.id(), 0));
    return layer;
  }

  public Box box(int nodeId) {
    return boxes.get(nodeId);
  }

  public List<Box> boxes() {
    return List.copyOf(boxes.values());
  }

  public int width() {
    return width;
  }

  public int height() {
    return height;
  }
}
