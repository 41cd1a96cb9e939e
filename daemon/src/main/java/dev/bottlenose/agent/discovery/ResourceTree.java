package dev.bottlenose.agent.discovery;

import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The agent's resource tree: resources by path, ordered so a subtree is one contiguous range, with a
 * change log drained by the publisher. Thread-safe.
 */
public final class ResourceTree {
  private final TreeMap<ResourcePath, Resource> resources = new TreeMap<>();
  private final List<ResourceChange> changes = new ArrayList<>();

  /** Adds or replaces a resource; logs ADDED or UPDATED, nothing when equal to what is there. */
  public synchronized void put(Resource resource) {
    Resource old = resources.put(resource.path(), resource);
    if (old == null) {
      changes.add(new ResourceChange(ResourceChange.Type.ADDED, resource));
    } else if (!old.equals(resource)) {
      changes.add(new ResourceChange(ResourceChange.Type.UPDATED, resource));
    }
  }

  /** Removes the resource and everything below it; logs one REMOVED per resource removed. */
  public synchronized void remove(ResourcePath path) {
    for (Resource r : range(path, -1)) {
      resources.remove(r.path());
      changes.add(new ResourceChange(ResourceChange.Type.REMOVED, r));
    }
  }

  public synchronized Resource get(ResourcePath path) {
    return resources.get(path);
  }

  public synchronized List<Resource> children(ResourcePath path) {
    List<Resource> all = range(path, 1);
    return all.isEmpty() ? all : all.subList(1, all.size());
  }

  /** The resource at {@code path} then its descendants down to {@code depth} levels (-1: all). */
  public synchronized List<Resource> subtree(ResourcePath path, int depth) {
    return range(path, depth);
  }

  public synchronized List<ResourceChange> drainChanges() {
    List<ResourceChange> drained = new ArrayList<>(changes);
    changes.clear();
    return drained;
  }

  private List<Resource> range(ResourcePath path, int depth) {
    List<Resource> out = new ArrayList<>();
    for (Map.Entry<ResourcePath, Resource> e : resources.tailMap(path, true).entrySet()) {
      if (!path.contains(e.getKey())) {
        break;
      }
      if (depth < 0 || e.getKey().depth() - path.depth() <= depth) {
        out.add(e.getValue());
      }
    }
    return out;
  }
}
