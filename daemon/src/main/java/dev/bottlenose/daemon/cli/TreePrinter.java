package dev.bottlenose.daemon.cli;

import dev.bottlenose.daemon.session.ResourceEntry;
import dev.bottlenose.model.ResourcePath;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    Map<ResourcePath, Integer> children = new HashMap<>();
    Map<ResourcePath, Integer> hidden = new LinkedHashMap<>();
    Set<ResourcePath> skipped = new HashSet<>();
    for (ResourceEntry r : resources) {
      ResourcePath parent = r.path().parent();
      if (parent != null && skipped.contains(parent)) {
        skipped.add(r.path());
        continue;
      }
      int n = parent == null ? 0 : children.merge(parent, 1, Integer::sum);
      if (maxChildren > 0 && n > maxChildren && r.path().depth() > baseDepth) {
        hidden.merge(parent, 1, Integer::sum);
        skipped.add(r.path());
        continue;
      }
      out.println("  ".repeat(Math.max(0, r.path().depth() - baseDepth)) + line(r));
    }
    hidden.forEach((parent, count) -> out.println("  (" + count + " more under " + parent + ")"));
  }

  private static String line(ResourceEntry r) {
    String name = r.path().isRoot() ? r.path().toString() : r.path().name();
    String attributes = r.attributes().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(" "));
    return name + "  [" + r.kind() + "]" + (attributes.isEmpty() ? "" : "  " + attributes);
  }
}
