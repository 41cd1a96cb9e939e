package dev.bottlenose.agent.discovery;

import dev.bottlenose.agent.sources.ToolThreads;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code /VM}: collectors ({@code /VM/GC/<collector>}), JIT compilations ({@code /VM/JIT/<c1|c2>/<method>}),
 * class loading, safepoints by VM operation, the interpreter and deoptimisations; and the cumulative VM
 * totals since the agent started for the {@code read} op.
 */
final class VmDiscovery {
  static final ResourcePath GC = Hierarchy.VM.root().child("GC");
  static final ResourcePath JIT = Hierarchy.VM.root().child("JIT");
  static final ResourcePath CLASS_LOADING = Hierarchy.VM.root().child("ClassLoading");
  static final ResourcePath SAFEPOINTS = Hierarchy.VM.root().child("Safepoints");
  static final ResourcePath INTERPRETER = Hierarchy.VM.root().child("Interpreter");
  static final ResourcePath DEOPTIMIZATION = Hierarchy.VM.root().child("Deoptimization");
  static final int MAX_COMPILED_METHODS = 10_000;

  private final ResourceTree tree;
  private final ClassLoadingMXBean classLoading = ManagementFactory.getClassLoadingMXBean();
  /** The collectors are fixed for the JVM's life; looking them up goes through every platform component. */
  private static final List<GarbageCollectorMXBean> COLLECTORS = ManagementFactory.getGarbageCollectorMXBeans();
  private final long gcCountAtStart = gcCount();
  private final long loadedAtStart = classLoading.getTotalLoadedClassCount();
  private final long unloadedAtStart = classLoading.getUnloadedClassCount();
  private final Map<String, long[]> compiled = new HashMap<>();
  private final Map<String, Long> droppedPerTier = new HashMap<>();
  private final Map<String, long[]> operations = new HashMap<>();
  private final Map<String, Long> deoptsByReason = new TreeMap<>();
  private volatile String jfrStatus = "starting";
  private final java.util.concurrent.atomic.AtomicLong handlerFailures = new java.util.concurrent.atomic.AtomicLong();
  private volatile String lastHandlerFailure = "";
  private long gcPauses;
  private long gcPauseNanos;
  private long jitCompilations;
  private long jitNanos;
  private long safepoints;
  private long safepointNanos;
  private long monitorBlockedNanos;
  private long deopts;

  VmDiscovery(ResourceTree tree) {
    this.tree = tree;
  }

  void start() {
    putRoot();
    tree.put(Resource.of(GC, "gc"));
    tree.put(Resource.of(JIT, "jit"));
    tree.put(Resource.of(SAFEPOINTS, "safepoints"));
    tree.put(new Resource(INTERPRETER, "interpreter", Map.of(
        "mode", String.valueOf(System.getProperty("java.vm.info")))));
    tree.put(Resource.of(DEOPTIMIZATION, "deoptimization"));
    refresh();
  }

  void jfrStatus(String status) {
    jfrStatus = status;
    putRoot();
  }

  /** A JFR event handler threw: counted and shown on /VM, never thrown on. */
  void handlerFailed(String eventType, Throwable t) {
    handlerFailures.incrementAndGet();
    lastHandlerFailure = eventType + ": " + t;
    putRoot();
  }

  boolean jfrRunning() {
    return "running".equals(jfrStatus);
  }

  private void putRoot() {
    Map<String, String> a = new LinkedHashMap<>();
    a.put("vmName", String.valueOf(System.getProperty("java.vm.name")));
    a.put("jfr", jfrStatus);
    a.put("jfrToolThreads", ToolThreads.jfrStatus());
    if (handlerFailures.get() > 0) {
      a.put("jfrHandlerFailures", String.valueOf(handlerFailures.get()));
      a.put("lastJfrHandlerFailure", lastHandlerFailure);
    }
    tree.put(new Resource(Hierarchy.VM.root(), "root", a));
  }

  void refresh() {
    for (GarbageCollectorMXBean gc : COLLECTORS) {
      Map<String, String> a = new LinkedHashMap<>();
      a.put("count", String.valueOf(gc.getCollectionCount()));
      a.put("timeMillis", String.valueOf(gc.getCollectionTime()));
      a.put("pools", String.join(",", gc.getMemoryPoolNames()));
      tree.put(new Resource(GC.child(gc.getName()), "collector", a));
    }
    Map<String, String> a = new LinkedHashMap<>();
    a.put("loaded", String.valueOf(classLoading.getLoadedClassCount()));
    a.put("totalLoaded", String.valueOf(classLoading.getTotalLoadedClassCount()));
    a.put("unloaded", String.valueOf(classLoading.getUnloadedClassCount()));
    tree.put(new Resource(CLASS_LOADING, "classLoading", a));
  }

  synchronized void gcPause(String name, long pauseNanos) {
    gcPauses++;
    gcPauseNanos += pauseNanos;
    tree.put(new Resource(GC, "gc", Map.of("pauses", String.valueOf(gcPauses), "pauseNanos", String.valueOf(gcPauseNanos),
        "lastPauseCollector", name)));
  }

  synchronized void compilation(int level, String method, long nanos, long count) {
    jitCompilations += count;
    jitNanos += nanos;
    String tier = level >= 4 ? "c2" : "c1";
    ResourcePath tierPath = JIT.child(tier);
    long[] t = compiled.get(tier + method);
    if (t == null && compiled.size() >= MAX_COMPILED_METHODS) {
      long dropped = droppedPerTier.merge(tier, 1L, Long::sum);
      tree.put(new Resource(tierPath, "tier", Map.of("methodsNotListed", String.valueOf(dropped))));
      return;
    }
    if (tree.get(tierPath) == null) {
      tree.put(Resource.of(tierPath, "tier"));
    }
    t = compiled.computeIfAbsent(tier + method, k -> new long[2]);
    t[0] += count;
    t[1] += nanos;
    tree.put(new Resource(tierPath.child(method), "compilation", Map.of(
        "count", String.valueOf(t[0]), "nanos", String.valueOf(t[1]))));
  }

  synchronized void vmOperation(String operation, boolean atSafepoint, long nanos) {
    if (atSafepoint) {
      safepoints++;
      safepointNanos += nanos;
    }
    long[] t = operations.computeIfAbsent(operation, k -> new long[2]);
    t[0]++;
    t[1] += nanos;
    tree.put(new Resource(SAFEPOINTS.child(operation), "vmOperation", Map.of(
        "count", String.valueOf(t[0]), "nanos", String.valueOf(t[1]), "atSafepoint", String.valueOf(atSafepoint))));
  }

  synchronized void deoptimization(String reason) {
    deopts++;
    deoptsByReason.merge(reason, 1L, Long::sum);
    Map<String, String> a = new LinkedHashMap<>();
    a.put("count", String.valueOf(deopts));
    deoptsByReason.forEach((r, n) -> a.put("reason." + r, String.valueOf(n)));
    tree.put(new Resource(DEOPTIMIZATION, "deoptimization", a));
  }

  synchronized void monitorBlocked(long nanos) {
    monitorBlockedNanos += nanos;
  }

  /** The {@code vm} object of the {@code read} op: totals since the agent started, only what is known. */
  synchronized Map<String, Object> totals(long processCpuNanos) {
    Map<String, Object> v = new LinkedHashMap<>();
    v.put("gcCount", gcCount() - gcCountAtStart);
    if (jfrRunning()) {
      v.put("gcPauseNanos", gcPauseNanos);
      v.put("jitCompilations", jitCompilations);
      v.put("jitNanos", jitNanos);
    }
    v.put("classesLoaded", classLoading.getTotalLoadedClassCount() - loadedAtStart);
    v.put("classesUnloaded", classLoading.getUnloadedClassCount() - unloadedAtStart);
    if (jfrRunning()) {
      v.put("safepoints", safepoints);
      v.put("safepointNanos", safepointNanos);
      v.put("monitorBlockedNanos", monitorBlockedNanos);
    }
    if (processCpuNanos >= 0) {
      v.put("processCpuNanos", processCpuNanos);
    }
    return v;
  }

  private static long gcCount() {
    long n = 0;
    for (GarbageCollectorMXBean gc : COLLECTORS) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }
}
