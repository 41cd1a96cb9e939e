package dev.bottlenose.daemon.cli;

import dev.bottlenose.daemon.session.ResourceEntry;
import dev.bottlenose.model.ResourcePath;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Prints resources (in path order) as an indented tree, optionally only the first few children of each node. */
final class TreePrinter {
  private final PrintStream out;
  private final int maxChildren;

  /** {@code maxChildren} 0 prints every child. */
  TreePrinter(PrintStream out, int maxChildren) {
    this.out = out;
    this.maxChildren = maxChildren;
  }

  /** Prints {@code resources}; indentation is each path's depth below {@code baseDepth}. */
  void print(List<ResourceEntry> resources, int baseDepth) {
    List<String> lines = new ArrayList<>();
    Map<ResourcePath, Integer> children = new HashMap<>();
    Map<ResourcePath, Integer> hidden = new HashMap<>();
    Map<ResourcePath, Integer> lastLineUnder = new HashMap<>();
    Set<ResourcePath> skipped = new HashSet<>();
    for (ResourceEntry r : resources) {
      ResourcePath parent = r.path().parent();
      int n = parent == null ? 0 : children.merge(parent, 1, Integer::sum);
      if (parent != null && (skipped.contains(parent) || maxChildren > 0 && n > maxChildren)) {
        if (!skipped.contains(parent)) {
          hidden.merge(parent, 1, Integer::sum);
        }
        skipped.add(r.path());
        continue;
      }
      lines.add(indent(r.path(), baseDepth) + line(r));
      for (ResourcePath p = r.path(); p != null; p = p.parent()) {
        lastLineUnder.put(p, lines.size() - 1);
      }
    }
    TreeMap<Integer, TreeMap<Integer, String>> more = new TreeMap<>();
    hidden.forEach((parent, count) -> more
        .computeIfAbsent(lastLineUnder.getOrDefault(parent, lines.size() - 1), k -> new TreeMap<>())
        .put(-parent.depth(), indent(parent, baseDepth - 1) + "(" + count + " more)"));
    more.descendingMap().forEach((at, deepestFirst) -> lines.addAll(at + 1, deepestFirst.values()));
    lines.forEach(out::println);
  }

  private static String indent(ResourcePath path, int baseDepth) {
    return "  ".repeat(Math.max(0, path.depth() - baseDepth));
  }

  private static String line(ResourceEntry r) {
    String name = r.path().isRoot() ? r.path().toString() : r.path().name();
    String attributes = r.attributes().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(" "));
    return name + "  [" + r.kind() + "]" + (attributes.isEmpty() ? "" : "  " + attributes);
  }
}
