package dev.bottlenose.agent.sources;

import dev.bottlenose.agent.discovery.ThreadPools;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordedThreadGroup;

/**
 * A {@code /Threads/<pool>[/<thread>]} path: the pool by the discovery's naming rules, the thread by
 * its name or {@code name#id}. Pools are worked out once per thread and cached (stream thread only).
 */
final class ThreadFilter {
  private static final int MAX_CACHED = 4096;
  private static final Map<Long, String[]> POOLS = new ConcurrentHashMap<>();

  private final String pool;
  private final String thread;

  ThreadFilter(String pool, String thread) {
    this.pool = pool;
    this.thread = thread;
  }

  boolean matches(RecordedThread t) {
    if (t == null || t.getJavaName() == null) {
      return false;
    }
    String name = t.getJavaName();
    if (thread != null && !thread.equals(name) && !thread.equals(name + "#" + t.getJavaThreadId())) {
      return false;
    }
    return pool.equals(poolOf(t, name));
  }

  private static String poolOf(RecordedThread t, String name) {
    String[] cached = POOLS.get(t.getJavaThreadId());
    if (cached != null && cached[0].equals(name)) {
      return cached[1];
    }
    if (POOLS.size() >= MAX_CACHED) {
      POOLS.clear();
    }
    RecordedThreadGroup group = t.getThreadGroup();
    String pool = ThreadPools.poolOf(name, group == null ? null : group.getName());
    POOLS.put(t.getJavaThreadId(), new String[] {name, pool});
    return pool;
  }
}
