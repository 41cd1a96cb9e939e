package dev.bottlenose.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The resources of one process, one tree per hierarchy; the roots always exist (kind {@value
 * #ROOT_KIND}). Thread-safe: every method holds the tree's own lock for a short, allocation-bounded
 * time. Changes are recorded for {@link #drainChanges()}.
 */
public final class ResourceTree {
  public static final String ROOT_KIND = "root";
  public static final String GROUP_KIND = "group";
  private static final String[] CODE_KINDS = {"package", "class", "method", "form"};

  private final Map<ResourcePath, Node> nodes = new HashMap<>();
  private final Map<ResourcePath, ResourceChange> changes = new LinkedHashMap<>();

  public ResourceTree() {
    for (Hierarchy h : Hierarchy.values()) {
      nodes.put(h.root(), new Node(Resource.of(h.root(), ROOT_KIND)));
    }
  }

  /** The kind given to an ancestor that {@link #put} has to create. */
  public static String implicitKind(ResourcePath path) {
    if (path.isRoot()) {
      return ROOT_KIND;
    }
    if (path.hierarchy() == Hierarchy.CODE && path.depth() <= CODE_KINDS.length) {
      return CODE_KINDS[path.depth() - 1];
    }
    return GROUP_KIND;
  }

  /** Adds the resource, or replaces the one at its path; creates missing ancestors. True if anything changed. */
  public synchronized boolean put(Resource resource) {
    Node existing = nodes.get(resource.path());
    if (existing != null) {
      if (existing.resource.equals(resource)) {
        return false;
      }
      existing.resource = resource;
      record(ResourceChange.Type.UPDATED, resource);
      return true;
    }
    ResourcePath parentPath = resource.path().parent();
    if (!nodes.containsKey(parentPath)) {
      put(new Resource(parentPath, implicitKind(parentPath), Map.of()));
    }
    Node node = new Node(resource);
    nodes.put(resource.path(), node);
    nodes.get(parentPath).children.put(resource.path().name(), node);
    record(ResourceChange.Type.ADDED, resource);
    return true;
  }

  /** Removes the resource at {@code path} and everything below it (a root keeps itself). True if anything was removed. */
  public synchronized boolean remove(ResourcePath path) {
    Node node = nodes.get(path);
    if (node == null || (path.isRoot() && node.children.isEmpty())) {
      return false;
    }
    for (Node child : List.copyOf(node.children.values())) {
      removeSubtree(child);
    }
    node.children.clear();
    if (!path.isRoot()) {
      removeSubtree(node);
      nodes.get(path.parent()).children.remove(path.name());
    }
    return true;
  }

  private void removeSubtree(Node node) {
    for (Node child : node.children.values()) {
      removeSubtree(child);
    }
    nodes.remove(node.resource.path());
    record(ResourceChange.Type.REMOVED, node.resource);
  }

  /** The resource at {@code path}, or null. */
  public synchronized Resource get(ResourcePath path) {
    Node node = nodes.get(path);
    return node == null ? null : node.resource;
  }

  /** The children of {@code path}, sorted by name; empty if it has none or does not exist. */
  public synchronized List<Resource> children(ResourcePath path) {
    Node node = nodes.get(path);
    List<Resource> list = new ArrayList<>(node == null ? 0 : node.children.size());
    if (node != null) {
      for (Node child : node.children.values()) {
        list.add(child.resource);
      }
    }
    return list;
  }

  /**
   * The resource at {@code path} followed by its descendants in pre-order (children sorted by
   * name), down to {@code depth} levels below it (0: just the node; -1: all). Empty if absent.
   */
  public synchronized List<Resource> subtree(ResourcePath path, int depth) {
    List<Resource> list = new ArrayList<>();
    Node node = nodes.get(path);
    if (node != null) {
      collect(node, depth < 0 ? Integer.MAX_VALUE : depth, list);
    }
    return list;
  }

  private static void collect(Node node, int depth, List<Resource> into) {
    into.add(node.resource);
    if (depth > 0) {
      for (Node child : node.children.values()) {
        collect(child, depth - 1, into);
      }
    }
  }

  /** The number of resources, roots included. */
  public synchronized int size() {
    return nodes.size();
  }

  /**
   * The changes since the last drain, coalesced per path to the net effect (added then updated is
   * added; added then removed is nothing; removed then added is updated), and clears them. Order:
   * removals first, then additions and updates, each in path order (so parents come before children).
   */
  public synchronized List<ResourceChange> drainChanges() {
    List<ResourceChange> list = new ArrayList<>(changes.values());
    changes.clear();
    list.sort(Comparator.comparing((ResourceChange c) -> c.type() != ResourceChange.Type.REMOVED).thenComparing(ResourceChange::path));
    return list;
  }

  private void record(ResourceChange.Type type, Resource resource) {
    ResourcePath path = resource.path();
    ResourceChange before = changes.get(path);
    ResourceChange.Type net = before == null ? type : coalesce(before.type(), type);
    if (net == null) {
      changes.remove(path);
    } else {
      changes.put(path, new ResourceChange(net, resource));
    }
  }

  private static ResourceChange.Type coalesce(ResourceChange.Type before, ResourceChange.Type now) {
    switch (now) {
      case REMOVED:
        return before == ResourceChange.Type.ADDED ? null : now;
      case ADDED:
        return before == ResourceChange.Type.REMOVED ? ResourceChange.Type.UPDATED : now;
      default:
        return before == ResourceChange.Type.ADDED ? before : now;
    }
  }

  private static final class Node {
    final TreeMap<String, Node> children = new TreeMap<>();
    Resource resource;

    Node(Resource resource) {
      this.resource = resource;
    }
  }
}
