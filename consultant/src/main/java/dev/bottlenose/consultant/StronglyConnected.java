package dev.bottlenose.consultant;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The strongly connected components of a directed graph (Tarjan's algorithm, iterative: a graph of thousands of
 * nodes in a chain must not overflow the stack). A search-history graph is a tree and a DAG almost everywhere, but a
 * walk down the call graph may come back to a method it has tested already (recursion), and that node is then a
 * child of its own descendant.
 */
final class StronglyConnected {
  private StronglyConnected() {}

  /**
   * The components of the graph whose nodes are {@code edges}' keys; an edge to a node that is not a key is ignored.
   * Each component lists its nodes; a component comes before every component it has an edge from (reverse
   * topological order).
   */
  static List<List<Integer>> of(Map<Integer, List<Integer>> edges) {
    Map<Integer, Integer> index = new HashMap<>();
    Map<Integer, Integer> low = new HashMap<>();
    Deque<Integer> stack = new ArrayDeque<>();
    Set<Integer> onStack = new HashSet<>();
    List<List<Integer>> components = new ArrayList<>();
    for (Integer root : edges.keySet()) {
      if (index.containsKey(root)) {
        continue;
      }
      // each frame: a node and how many of its edges it has followed
      Deque<int[]> frames = new ArrayDeque<>();
      frames.push(new int[] {root, 0});
      index.put(root, index.size());
      low.put(root, index.get(root));
      stack.push(root);
      onStack.add(root);
      while (!frames.isEmpty()) {
        int[] frame = frames.peek();
        int node = frame[0];
        List<Integer> out = edges.get(node);
        if (frame[1] < out.size()) {
          Integer next = out.get(frame[1]++);
          if (!edges.containsKey(next)) {
            continue;
          }
          if (!index.containsKey(next)) {
            index.put(next, index.size());
            low.put(next, index.get(next));
            stack.push(next);
            onStack.add(next);
            frames.push(new int[] {next, 0});
          } else if (onStack.contains(next)) {
            low.put(node, Math.min(low.get(node), index.get(next)));
          }
          continue;
        }
        frames.pop();
        if (!frames.isEmpty()) {
          int parent = frames.peek()[0];
          low.put(parent, Math.min(low.get(parent), low.get(node)));
        }
        if (low.get(node).equals(index.get(node))) {
          List<Integer> component = new ArrayList<>();
          Integer member;
          do {
            member = stack.pop();
            onStack.remove(member);
            component.add(member);
          } while (member != node);
          components.add(component);
        }
      }
    }
    return components;
  }
}
