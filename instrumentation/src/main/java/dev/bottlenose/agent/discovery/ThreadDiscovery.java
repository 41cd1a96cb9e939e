package dev.bottlenose.agent.discovery;

import dev.bottlenose.agent.sources.ToolCode;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code /Threads/<pool>/<thread>} from the thread MXBean (no stacks) and the thread groups, plus the
 * {@code /SyncObjects} seen in the lock information of blocked and parked threads. The agent's threads and
 * their pool carry {@link dev.bottlenose.model.Resource#TOOL}.
 *
 * <p>The tree holds what changes only when threads come and go ({@code id}, {@code daemon}); what changes all
 * the time (state, CPU time, blocked and waited counts) is read when someone asks ({@link #withLive}). Kept in
 * the tree, every running thread changed every second, and the agent sent the whole thread list to every
 * daemon twice a second.
 */
final class ThreadDiscovery {

  private final ResourceTree tree;
  private final SyncObjects sync;
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final boolean contention;
  /** Whether contention monitoring was off before discovery turned it on (then {@link #stop} turns it off). */
  private final boolean contentionWasOff;
  private final boolean cpu;
  private Map<Long, ResourcePath> known = new HashMap<>();
  /** Each of the program's live threads' waits and blocks so far, as the last refresh saw them. */
  private Map<Long, Long> waitCounts = new HashMap<>();
  /** The waits of the program's threads that have ended since the first refresh, as last seen. */
  private long endedWaits;
  /** The program's threads' waits and blocks at the first refresh (-1 before it). */
  private long waitsAtStart = -1;
  private volatile long programWaits = -1;

  ThreadDiscovery(ResourceTree tree, SyncObjects sync) {
    this.tree = tree;
    this.sync = sync;
    this.contentionWasOff = threads.isThreadContentionMonitoringSupported() && !threads.isThreadContentionMonitoringEnabled();
    this.contention = enable(threads.isThreadContentionMonitoringSupported(), () -> threads.setThreadContentionMonitoringEnabled(true));
    this.cpu = enable(threads.isThreadCpuTimeSupported(), () -> threads.setThreadCpuTimeEnabled(true));
  }

  private static boolean enable(boolean supported, Runnable enable) {
    if (!supported) {
      return false;
    }
    try {
      enable.run();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  void stop() {
    if (contention && contentionWasOff) {
      try {
        threads.setThreadContentionMonitoringEnabled(false);
      } catch (RuntimeException e) {
        // left on: it costs the program a little bookkeeping per contended monitor, nothing more
      }
    }
  }

  void start() {
    tree.put(new Resource(Hierarchy.THREADS.root(), "root", Map.of(
        "contentionMonitoring", String.valueOf(contention), "cpuTime", String.valueOf(cpu))));
  }

  void refresh() {
    Map<Long, Thread> live = ThreadPools.liveThreads();
    long[] ids = longs(live.keySet());
    ThreadInfo[] infos = threads.getThreadInfo(ids, 0);
    Map<Long, ResourcePath> seen = new HashMap<>();
    Map<Long, Long> waits = new HashMap<>();
    Set<String> names = new HashSet<>();
    for (ThreadInfo info : infos) {
      if (info == null) {
        continue;
      }
      if (!ToolCode.isToolThread(info.getThreadName())) {
        waits.put(info.getThreadId(), Math.max(0, info.getWaitedCount()) + Math.max(0, info.getBlockedCount()));
      }
      Thread t = live.get(info.getThreadId());
      ThreadGroup group = t.getThreadGroup();
      String pool = ThreadPools.poolOf(info.getThreadName(), group == null ? null : group.getName());
      boolean agent = ToolCode.isAgentThread(info.getThreadName());
      String segment = names.add(pool + "/" + info.getThreadName()) ? info.getThreadName() : info.getThreadName() + "#" + info.getThreadId();
      ResourcePath poolPath = Hierarchy.THREADS.root().child(pool);
      if (tree.get(poolPath) == null) {
        tree.put(agent ? new Resource(poolPath, "pool", Map.of(Resource.TOOL, "true")) : Resource.of(poolPath, "pool"));
      }
      ResourcePath path = poolPath.child(segment);
      ResourcePath before = known.get(info.getThreadId());
      if (before != null && !before.equals(path)) {
        tree.remove(before);
      }
      Map<String, String> attributes = new LinkedHashMap<>();
      attributes.put("id", String.valueOf(info.getThreadId()));
      attributes.put("daemon", String.valueOf(t.isDaemon()));
      if (agent) {
        attributes.put(Resource.TOOL, "true");
      }
      tree.put(new Resource(path, "thread", attributes));
      seen.put(info.getThreadId(), path);
      if (!agent) {
        noteLock(info);
      }
    }
    for (Map.Entry<Long, ResourcePath> e : known.entrySet()) {
      if (!seen.containsKey(e.getKey())) {
        tree.remove(e.getValue());
      }
    }
    known = seen;
    removeEmptyPools();
    countWaits(waits);
  }

  /**
   * How many times the program's threads (not the agent's, not JFR's) have parked, waited or blocked entering a
   * monitor since discovery started ({@link ThreadInfo#getWaitedCount} and {@link ThreadInfo#getBlockedCount}, which
   * HotSpot counts for every park as for every {@code Object.wait}), as of the last refresh; -1 before the first.
   * Every such wait is one event of a source that records parks or monitor entries: the rate the cost of counting
   * lock waiting exactly is read at. A thread that started and ended between two refreshes is missed.
   */
  long programWaits() {
    return programWaits;
  }

  private void countWaits(Map<Long, Long> now) {
    long sum = 0;
    for (Map.Entry<Long, Long> e : waitCounts.entrySet()) {
      if (!now.containsKey(e.getKey())) {
        endedWaits += e.getValue();
      }
    }
    for (long n : now.values()) {
      sum += n;
    }
    waitCounts = now;
    sum += endedWaits;
    if (waitsAtStart < 0) {
      waitsAtStart = sum;
    }
    programWaits = Math.max(0, sum - waitsAtStart);
  }

  /**
   * {@code found} with each thread's live attributes added (state, and where the JVM keeps them CPU time and
   * blocked and waited counts); a thread that has ended keeps what the tree holds.
   */
  List<Resource> withLive(List<Resource> found) {
    Map<Long, ThreadInfo> infos = new HashMap<>();
    List<Long> threadIds = new ArrayList<>(found.size());
    for (Resource r : found) {
      if (r.kind().equals("thread") && r.attributes().containsKey("id")) {
        threadIds.add(Long.parseLong(r.attributes().get("id")));
      }
    }
    long[] ids = longs(threadIds);
    for (ThreadInfo info : threads.getThreadInfo(ids, 0)) {
      if (info != null) {
        infos.put(info.getThreadId(), info);
      }
    }
    List<Resource> out = new ArrayList<>(found.size());
    for (Resource r : found) {
      String id = r.kind().equals("thread") ? r.attributes().get("id") : null;
      ThreadInfo info = id == null ? null : infos.get(Long.parseLong(id));
      if (info == null) {
        out.add(r);
        continue;
      }
      Map<String, String> a = new LinkedHashMap<>(r.attributes());
      a.putAll(live(info));
      out.add(new Resource(r.path(), r.kind(), a));
    }
    return out;
  }

  private Map<String, String> live(ThreadInfo info) {
    Map<String, String> a = new LinkedHashMap<>();
    a.put("state", info.getThreadState().name());
    if (contention) {
      a.put("blockedCount", String.valueOf(info.getBlockedCount()));
      a.put("blockedMillis", String.valueOf(info.getBlockedTime()));
      a.put("waitedCount", String.valueOf(info.getWaitedCount()));
    }
    if (cpu) {
      long nanos = threads.getThreadCpuTime(info.getThreadId());
      if (nanos >= 0) {
        a.put("cpuNanos", String.valueOf(nanos));
      }
    }
    return a;
  }

  private void noteLock(ThreadInfo info) {
    LockInfo lock = info.getLockInfo();
    if (lock == null) {
      return;
    }
    if (info.getThreadState() == Thread.State.BLOCKED) {
      sync.sampledMonitor(lock.getClassName(), lock.getIdentityHashCode());
    } else if (lock.getClassName().startsWith("java.util.concurrent.")) {
      sync.sampledLock(lock.getClassName());
    }
  }

  private void removeEmptyPools() {
    for (Resource pool : tree.children(Hierarchy.THREADS.root())) {
      if (pool.kind().equals("pool") && tree.children(pool.path()).isEmpty()) {
        tree.remove(pool.path());
      }
    }
  }

  /**
   * Sum of the CPU time of the threads whose names start with one of {@code prefixes}; -1 if unknown. The
   * threads are looked for again only when the JVM's thread count or the prefixes changed, or every {@value
   * #NAMED_MAX_AGE_NANOS} ns (a thread renamed or replaced one for one): looking through every thread's
   * information on each read cost the agent about a millisecond a second.
   */
  synchronized long cpuNanosOfThreadsNamed(String... prefixes) {
    if (!cpu) {
      return -1;
    }
    int count = threads.getThreadCount();
    long now = System.nanoTime();
    if (named == null || count != namedAmong || !java.util.Arrays.equals(prefixes, namedPrefixes)
        || now - namedAtNanos > NAMED_MAX_AGE_NANOS) {
      List<Long> ids = new ArrayList<>();
      for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
        if (info != null && startsWithAny(info.getThreadName(), prefixes)) {
          ids.add(info.getThreadId());
        }
      }
      named = longs(ids);
      namedAmong = count;
      namedPrefixes = prefixes.clone();
      namedAtNanos = now;
    }
    long sum = 0;
    for (long id : named) {
      sum += Math.max(0, threads.getThreadCpuTime(id));
    }
    return sum;
  }

  static final long NAMED_MAX_AGE_NANOS = 10_000_000_000L;
  private long[] named;
  private int namedAmong;
  private String[] namedPrefixes;
  private long namedAtNanos;

  private static boolean startsWithAny(String name, String... prefixes) {
    for (String p : prefixes) {
      if (name.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code values} as an array. A loop, not a stream: this runs every discovery period in the program's JVM, where
   * the JDK's stream code is the program's too; new lambda types in it can make the JIT throw away the program's
   * compiled stream code and compile it again.
   */
  private static long[] longs(java.util.Collection<Long> values) {
    long[] out = new long[values.size()];
    int i = 0;
    for (Long v : values) {
      out[i++] = v;
    }
    return out;
  }
}
