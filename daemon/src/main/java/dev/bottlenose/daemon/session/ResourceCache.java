package dev.bottlenose.daemon.session;

import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/** Every resource seen so far, in path order, so the hierarchies stay readable after the target exits. */
final class ResourceCache {
  private final NavigableMap<ResourcePath, ResourceEntry> entries = new ConcurrentSkipListMap<>();

  void put(ResourceEntry entry) {
    entries.put(entry.path(), entry);
  }

  void remove(ResourcePath path) {
    entries.remove(path);
  }

  /** The resource at {@code path} and its known descendants down to {@code depth} levels (-1: all). */
  List<ResourceEntry> subtree(ResourcePath path, int depth) {
    List<ResourceEntry> found = new ArrayList<>();
    for (ResourceEntry e : entries.tailMap(path, true).values()) {
      if (!path.contains(e.path())) {
        break;
      }
      if (depth < 0 || e.path().depth() - path.depth() <= depth) {
        found.add(e);
      }
    }
    return found;
  }

  int size() {
    return entries.size();
  }
}
