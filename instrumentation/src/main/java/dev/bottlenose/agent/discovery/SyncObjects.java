package dev.bottlenose.agent.discovery;

import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /SyncObjects/monitors/<class>[/<class>@<identity hash>]} and {@code /SyncObjects/locks/<class>}:
 * objects seen contended, with how often a sampled thread was blocked on them ({@code blockedSamples})
 * and, from JFR, the contended entries and time ({@code contended}, {@code contendedNanos}).
 */
final class SyncObjects {
  static final ResourcePath MONITORS = Hierarchy.SYNC_OBJECTS.root().child("monitors");
  static final ResourcePath LOCKS = Hierarchy.SYNC_OBJECTS.root().child("locks");

  private final ResourceTree tree;
  private final Map<ResourcePath, long[]> totals = new LinkedHashMap<>();

  SyncObjects(ResourceTree tree) {
    this.tree = tree;
  }

  void start() {
    tree.put(Resource.of(Hierarchy.SYNC_OBJECTS.root(), "root"));
    tree.put(Resource.of(MONITORS, "monitors"));
    tree.put(Resource.of(LOCKS, "locks"));
  }

  synchronized void sampledMonitor(String className, int identityHash) {
    ResourcePath cls = MONITORS.child(className);
    add(cls, "monitor", 1, 0, 0);
    add(cls.child(className + "@" + Integer.toHexString(identityHash)), "instance", 1, 0, 0);
  }

  synchronized void sampledLock(String className) {
    add(LOCKS.child(className), "lock", 1, 0, 0);
  }

  /** {@code count} contended entries of monitors of {@code className}, {@code nanos} in all. */
  synchronized void contendedMonitor(String className, long nanos, long count) {
    add(MONITORS.child(className), "monitor", 0, count, nanos);
  }

  /** {@code count} parks on locks of {@code className}, {@code nanos} in all. */
  synchronized void contendedLock(String className, long nanos, long count) {
    add(LOCKS.child(className), "lock", 0, count, nanos);
  }

  private void add(ResourcePath path, String kind, long samples, long contended, long nanos) {
    long[] t = totals.computeIfAbsent(path, p -> new long[3]);
    t[0] += samples;
    t[1] += contended;
    t[2] += nanos;
    Map<String, String> a = new LinkedHashMap<>();
    a.put("blockedSamples", String.valueOf(t[0]));
    a.put("contended", String.valueOf(t[1]));
    a.put("contendedNanos", String.valueOf(t[2]));
    tree.put(new Resource(path, kind, a));
  }
}
