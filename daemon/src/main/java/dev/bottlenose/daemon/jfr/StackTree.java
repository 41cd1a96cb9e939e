package dev.bottlenose.daemon.jfr;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Sampled stacks merged into a tree from the outermost frame up, what a flame graph draws: per node its method
 * ({@code /Code} path), the samples whose stack passes through it ({@code total}) and those that end in it
 * ({@code self}). A method called recursively is a node at each depth, as on the stacks. Not thread-safe: its
 * {@link CallGraph} guards it. Bounded: past {@link #MAX_FRAMES} nodes a stack stops growing the tree where a
 * node is missing, and the sample is counted as ending there. Counts are halved with the call graph's.
 */
final class StackTree {
  static final int MAX_FRAMES = 50_000;

  private static final class Frame {
    final String method;
    final Map<String, Frame> children = new HashMap<>(4);
    long total;
    long self;

    Frame(String method) {
      this.method = method;
    }
  }

  private final Frame root = new Frame("");
  private int frames;

  /** One sample's stack of method paths, top frame first, counted {@code weight} times. */
  void add(List<String> topFirst, long weight) {
    Frame at = root;
    at.total += weight;
    for (int i = topFirst.size() - 1; i >= 0; i--) {
      String method = topFirst.get(i);
      Frame next = at.children.get(method);
      if (next == null) {
        if (frames >= MAX_FRAMES) {
          break;
        }
        next = new Frame(method);
        at.children.put(method, next);
        frames++;
      }
      next.total += weight;
      at = next;
    }
    at.self += weight;
  }

  /** Halves every count and forgets the nodes that reach zero. */
  void decay() {
    frames = 0;
    halve(root);
  }

  private void halve(Frame f) {
    f.total /= 2;
    f.self /= 2;
    f.children.values().removeIf(c -> {
      halve(c);
      return c.total == 0;
    });
    frames += f.children.size();
  }

  /**
   * The {@code max} nodes with the most samples, the root first (method {@code /Code}, parent -1) and each node
   * after its parent: {@code {"samples", "frames": [{"parent" (index), "method", "total", "self"}, ...]}}. A node's
   * children left out show as the part of its total that no listed child or its self accounts for.
   */
  Map<String, Object> top(int max) {
    List<Object> out = new ArrayList<>();
    Map<Frame, Integer> index = new HashMap<>();
    PriorityQueue<Frame[]> queue = new PriorityQueue<>((a, b) -> Long.compare(b[1].total, a[1].total));
    index.put(root, 0);
    out.add(frame(-1, "/Code", root));
    root.children.values().forEach(c -> queue.add(new Frame[] {root, c}));
    while (!queue.isEmpty() && out.size() < max) {
      Frame[] next = queue.poll();
      Frame f = next[1];
      index.put(f, out.size());
      out.add(frame(index.get(next[0]), f.method, f));
      f.children.values().forEach(c -> queue.add(new Frame[] {f, c}));
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("samples", root.total);
    m.put("frames", out);
    return m;
  }

  private static Map<String, Object> frame(int parent, String method, Frame f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("parent", parent);
    m.put("method", method);
    m.put("total", f.total);
    m.put("self", f.self);
    return m;
  }

  int size() {
    return frames;
  }
}
