package dev.bottlenose.consultant;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.util.List;
import java.util.Map;

/** Scripted programs for the engine tests: a resource tree, a call graph, and the true value of every metric at every focus. */
final class PlantedPrograms {
  static final ResourcePath MAIN = ResourcePath.parse("/Code/com.acme/Main/main([Ljava/lang/String;)V");
  static final ResourcePath SPIN = ResourcePath.parse("/Code/com.acme/Hot/spin()V");
  static final ResourcePath NAP = ResourcePath.parse("/Code/com.acme/Idle/nap()V");
  static final ResourcePath SORT = ResourcePath.parse("/Code/java.util/Arrays/sort([I)V");
  static final ResourcePath MAIN_THREAD = ResourcePath.parse("/Threads/main/main");
  static final ResourcePath WORKER = ResourcePath.parse("/Threads/pool-1/pool-1-thread-1");
  static final ResourcePath CACHE_LOCK = ResourcePath.parse("/SyncObjects/com.acme.Cache");

  static ResourceTree tree() {
    ResourceTree t = new ResourceTree();
    for (ResourcePath p : List.of(MAIN, SPIN, NAP, SORT, MAIN_THREAD, WORKER, CACHE_LOCK)) {
      t.put(Resource.of(p, p.hierarchy() == Hierarchy.CODE ? "method" : "thread"));
    }
    t.put(Resource.of(ResourcePath.parse("/Process/4242"), "process"));
    return t;
  }

  static TreeOracle oracle() {
    return oracle(tree());
  }

  static TreeOracle oracle(ResourceTree tree) {
    return new TreeOracle(tree, Map.of(MAIN, List.of(SPIN, NAP), SPIN, List.of()));
  }

  /** CPU-hot {@code com.acme.Hot.spin()} on the main thread: 85% of the time, everything else quiet. */
  static double cpuHot(MetricRequest r) {
    if (!r.metric().equals("cpu_inclusive")) {
      return 0.01;
    }
    return codeShare(r.focus().get(Hierarchy.CODE)) * threadShare(r.focus().get(Hierarchy.THREADS));
  }

  private static double codeShare(ResourcePath code) {
    Map<ResourcePath, Double> inclusive = Map.of(
        Hierarchy.CODE.root(), 0.90,
        SPIN.parent().parent(), 0.89,
        MAIN.parent(), 0.88,
        MAIN, 0.88,
        SPIN.parent(), 0.85,
        SPIN, 0.85);
    return inclusive.getOrDefault(code, 0.01);
  }

  private static double threadShare(ResourcePath thread) {
    if (thread.isRoot()) {
      return 1;
    }
    return MAIN_THREAD.contains(thread) || thread.contains(MAIN_THREAD) ? 0.95 : 0.05;
  }

  /** Threads queue on the {@code com.acme.Cache} monitor: half the time waiting, nearly all of it there. */
  static double contendedLock(MetricRequest r) {
    if (r.metric().equals("lock_handoff_share")) {
      return 0.6;
    }
    if (!r.metric().startsWith("sync_wait")) {
      return 0.01;
    }
    ResourcePath lock = r.focus().get(Hierarchy.SYNC_OBJECTS);
    return lock.isRoot() || lock.equals(CACHE_LOCK) ? 0.5 : 0.01;
  }

  /** A program that mostly sleeps: every metric low everywhere. */
  static double mostlyAsleep(MetricRequest r) {
    return r.metric().equals("io_bytes") ? 65536 : 0.02;
  }

  static double cost(MetricRequest r) {
    return r.focus().equals(Focus.WHOLE_PROGRAM) ? 0.002 : 0.004;
  }

  private PlantedPrograms() {}
}
