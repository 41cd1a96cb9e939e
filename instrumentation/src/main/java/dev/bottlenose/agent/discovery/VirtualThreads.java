package dev.bottlenose.agent.discovery;

import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.lang.management.ManagementFactory;
import java.lang.management.PlatformManagedObject;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /Threads/virtual}: the program's virtual threads as one group, since the thread MXBean lists
 * platform threads only. On JDK 24+ the scheduler's MXBean gives mounted and queued virtual threads and
 * the carrier pool (read by reflection: the agent is built for JDK 17); on JDK 21+ JFR's
 * {@code jdk.VirtualThreadPinned} events count pinning (a virtual thread that blocked its carrier for
 * 20 ms or more) and name where it happened. Nothing is shown on a JDK without virtual threads.
 */
public final class VirtualThreads {
  static final ResourcePath PATH = Hierarchy.THREADS.root().child("virtual");
  public static final boolean SUPPORTED = Runtime.version().feature() >= 21;

  private final ResourceTree tree;
  private final Class<?> schedulerType = schedulerType();
  private final PlatformManagedObject scheduler = schedulerBean(schedulerType);
  private long pinned;
  private long pinnedNanos;
  private String lastPinnedAt = "";

  VirtualThreads(ResourceTree tree) {
    this.tree = tree;
  }

  /** Called on the discovery thread every second. */
  synchronized void refresh() {
    if (!SUPPORTED) {
      return;
    }
    Map<String, String> a = new LinkedHashMap<>();
    if (scheduler != null) {
      a.put("mounted", read("getMountedVirtualThreadCount"));
      a.put("queued", read("getQueuedVirtualThreadCount"));
      a.put("parallelism", read("getParallelism"));
      a.put("carriers", read("getPoolSize"));
    }
    a.put("pinned", String.valueOf(pinned));
    a.put("pinnedNanos", String.valueOf(pinnedNanos));
    if (!lastPinnedAt.isEmpty()) {
      a.put("lastPinnedAt", lastPinnedAt);
    }
    tree.put(new Resource(PATH, "virtual", a));
  }

  /** A virtual thread pinned its carrier for {@code nanos}, in {@code where} (class.method), or null. */
  synchronized void pinned(long nanos, String where) {
    pinned++;
    pinnedNanos += nanos;
    if (where != null) {
      lastPinnedAt = where;
    }
  }

  private String read(String getter) {
    try {
      Method m = schedulerType.getMethod(getter);
      return String.valueOf(m.invoke(scheduler));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return "unavailable";
    }
  }

  private static Class<?> schedulerType() {
    try {
      return Class.forName("jdk.management.VirtualThreadSchedulerMXBean");
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  @SuppressWarnings("unchecked")
  private static PlatformManagedObject schedulerBean(Class<?> type) {
    try {
      return type == null ? null : ManagementFactory.getPlatformMXBean((Class<PlatformManagedObject>) type);
    } catch (LinkageError | RuntimeException e) {
      return null;
    }
  }
}
