package dev.bottlenose.agent.discovery;

import dev.bottlenose.agent.sources.ToolCode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Derives a thread's pool from its name: a trailing number (after {@code -}, {@code _}, {@code #},
 * space or nothing) is the thread's index in its pool, and the rest, without a trailing
 * {@code -thread} or {@code -worker} word, is the pool ({@code pool-1-thread-3} to {@code pool-1},
 * {@code ForkJoinPool.commonPool-worker-1} to {@code ForkJoinPool.commonPool}, {@code http-exec-7} to
 * {@code http-exec}). A name without a trailing number belongs to its thread group's pool
 * ({@code main} or {@code system}), or to {@code other} when the group is unknown. The agent's own
 * {@code bottlenose-*} threads are the pool {@code bottlenose}.
 */
public final class ThreadPools {
  private static final String SEPARATORS = "-_# ";

  public static String poolOf(String threadName, String groupName) {
    if (ToolCode.isAgentThread(threadName)) {
      return "bottlenose";
    }
    String group = groupName == null || groupName.isEmpty() ? "other" : groupName;
    int end = threadName.length();
    while (end > 0 && Character.isDigit(threadName.charAt(end - 1))) {
      end--;
    }
    if (end == threadName.length() || end == 0) {
      return group;
    }
    String pool = trimSeparator(threadName.substring(0, end));
    for (String word : new String[] {"thread", "worker"}) {
      if (pool.endsWith(word) && pool.length() > word.length()) {
        String before = pool.substring(0, pool.length() - word.length());
        if (SEPARATORS.indexOf(before.charAt(before.length() - 1)) >= 0) {
          pool = trimSeparator(before);
        }
      }
    }
    return pool.isEmpty() ? group : pool;
  }

  /** Every live thread of the JVM, by id. */
  public static Map<Long, Thread> liveThreads() {
    ThreadGroup root = Thread.currentThread().getThreadGroup();
    while (root.getParent() != null) {
      root = root.getParent();
    }
    Thread[] all = new Thread[root.activeCount() + 16];
    int n = root.enumerate(all, true);
    while (n == all.length) {
      all = new Thread[all.length * 2];
      n = root.enumerate(all, true);
    }
    Map<Long, Thread> out = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      out.put(all[i].getId(), all[i]);
    }
    return out;
  }
  private static String trimSeparator(String s) {
    return !s.isEmpty() && SEPARATORS.indexOf(s.charAt(s.length() - 1)) >= 0 ? s.substring(0, s.length() - 1) : s;
  }

  private ThreadPools() {}
}
