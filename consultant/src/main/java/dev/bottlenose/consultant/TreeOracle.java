package dev.bottlenose.consultant;

import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@link ResourceOracle} over a {@link ResourceTree}: the tree's children, except that a {@code /Code}
 * method's children are its callees from {@code callGraph} (method path → callee paths) and execution
 * forms are not refined into.
 */
public final class TreeOracle implements ResourceOracle {
  private final ResourceTree tree;
  private final Map<ResourcePath, List<ResourcePath>> callGraph;

  public TreeOracle(ResourceTree tree, Map<ResourcePath, List<ResourcePath>> callGraph) {
    this.tree = tree;
    this.callGraph = Map.copyOf(callGraph);
  }

  @Override
  public List<ResourceChild> children(ResourcePath path) {
    List<ResourceChild> list = new ArrayList<>();
    if (path.isMethod()) {
      for (ResourcePath callee : callGraph.getOrDefault(path, List.of())) {
        list.add(new ResourceChild(path, callee, ResourceChild.CALLS));
      }
      return list;
    }
    for (Resource r : tree.children(path)) {
      list.add(new ResourceChild(path, r.path(), ResourceChild.CONTAINS));
    }
    return list;
  }
}
