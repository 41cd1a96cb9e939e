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
 *
 * <p>The scheduler is asked only once the program has carrier threads, that is once it has run a virtual thread:
 * asking earlier initializes {@code java.lang.VirtualThread} (its scheduler is made in its static initializer) in a
 * program that never used it, and linking that {@code Thread} subclass makes the JIT throw away every compiled
 * method that relied on {@code Thread} having no subclass overriding {@code isInterrupted}, {@code blockedOn} and
 * the like: the whole of the program's compiled socket and channel code. On an HTTP server on JDK 25 that was 21
 * compiled methods thrown away 4 s into a search, among them its selector loops, compiled again at C2.
 */
public final class VirtualThreads {
  static final ResourcePath PATH = Hierarchy.THREADS.root().child("virtual");
  public static final boolean SUPPORTED = Runtime.version().feature() >= 21;
  /** The class of the default scheduler's carrier threads (JDK 21+). */
  private static final String CARRIER_CLASS = "jdk.internal.misc.CarrierThread";

  private final ResourceTree tree;
  private final Class<?> schedulerType = schedulerType();
  private final PlatformManagedObject scheduler = schedulerBean(schedulerType);
  /** Whether the program has had carrier threads: from then on its scheduler exists and may be asked. */
  private boolean schedulerStarted;
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
    if (scheduler != null && (schedulerStarted || (schedulerStarted = carriersRunning()))) {
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

  /** Whether a carrier thread of the virtual threads' scheduler is alive (looked at by class name, loading nothing). */
  private static boolean carriersRunning() {
    for (Thread t : ThreadPools.liveThreads().values()) {
      if (t.getClass().getName().equals(CARRIER_CLASS)) {
        return true;
      }
    }
    return false;
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
