package dev.bottlenose.daemon.session;

import dev.bottlenose.agent.wire.Changes;
import dev.bottlenose.agent.wire.ResourcesReply;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourceChange;
import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The target's resource hierarchies as this session knows them: read from the agent while it runs,
 * updated by its {@code changes} events, and answered from what was seen once the target is gone.
 */
final class Hierarchies {
  private static final long FIRST_SCAN_NANOS = TimeUnit.SECONDS.toNanos(3);
  private final ResourceCache cache = new ResourceCache();
  private final List<Consumer<List<Map<String, Object>>>> listeners = new CopyOnWriteArrayList<>();
  private final long connectedNanos = System.nanoTime();

  /**
   * The resource at {@code path} ({@code /}: all roots) and its descendants to {@code depth}; asks
   * {@code agent} (path → answer) while it is there, else the cache ({@code endReason} says why).
   */
  List<ResourceEntry> read(String path, int depth, Function<String, Map<String, Object>> agent, String endReason) {
    String p = path == null || path.isBlank() ? "/" : path.trim();
    ResourcePath parsed = p.equals("/") ? null : parse(p);
    if (agent == null) {
      return parsed == null ? allRoots(depth) : cached(parsed, depth, endReason);
    }
    List<ResourceEntry> found = new ArrayList<>();
    for (Map<String, Object> r : ResourcesReply.fromMap(ask(p, agent)).resources()) {
      ResourceEntry entry = ResourceEntry.fromJson(r);
      cache.put(entry);
      found.add(entry);
    }
    return found;
  }

  void onChanges(Consumer<List<Map<String, Object>>> listener) {
    listeners.add(listener);
  }

  /** Applies a {@code changes} event to the cache and passes it on. */
  void apply(Changes event) {
    for (Changes.Change change : event.changes()) {
      ResourceEntry entry = ResourceEntry.fromJson(change.resource());
      if (change.type() == ResourceChange.Type.REMOVED) {
        cache.remove(entry.path());
      } else {
        cache.put(entry);
      }
    }
    List<Map<String, Object>> changes = event.changeMaps();
    listeners.forEach(l -> l.accept(changes));
  }

  int seen() {
    return cache.size();
  }

  /** A /Code path not found just after connecting is asked again while the agent's first class scan runs. */
  private Map<String, Object> ask(String path, Function<String, Map<String, Object>> agent) {
    while (true) {
      try {
        return agent.apply(path);
      } catch (SessionException e) {
        boolean scanning = path.startsWith("/Code") && System.nanoTime() - connectedNanos < FIRST_SCAN_NANOS;
        if (e.failure() != SessionException.Failure.NOT_FOUND || !scanning) {
          throw e;
        }
        pause();
      }
    }
  }

  private List<ResourceEntry> allRoots(int depth) {
    List<ResourceEntry> found = new ArrayList<>();
    if (depth == 0) {
      return found;
    }
    for (Hierarchy h : Hierarchy.values()) {
      found.addAll(cache.subtree(h.root(), depth < 0 ? -1 : depth - 1));
    }
    return found;
  }

  private List<ResourceEntry> cached(ResourcePath path, int depth, String endReason) {
    List<ResourceEntry> found = cache.subtree(path, depth);
    if (found.isEmpty()) {
      throw new SessionException(SessionException.Failure.NOT_FOUND, "no resource " + path + " was seen before "
          + endReason);
    }
    return found;
  }

  private static ResourcePath parse(String text) {
    try {
      return ResourcePath.parse(text);
    } catch (IllegalArgumentException e) {
      throw SessionException.badInput("malformed resource path: " + e.getMessage());
    }
  }

  private static void pause() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SessionException(SessionException.Failure.FAILED, "interrupted while waiting for the agent", e);
    }
  }
}
