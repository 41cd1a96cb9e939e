package dev.bottlenose.agent.discovery;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Derives a thread's pool from its name: a trailing number (after {@code -}, {@code _}, {@code #},
 * space or nothing) is the thread's index in its pool, and the rest, without a trailing
 * {@code -thread} or {@code -worker} word, is the pool ({@code pool-1-thread-3} to {@code pool-1},
 * {@code ForkJoinPool.commonPool-worker-1} to {@code ForkJoinPool.commonPool}, {@code http-exec-7} to
 * {@code http-exec}). A name without a trailing number belongs to its thread group's pool
 * ({@code main} or {@code system}), or to {@code other} when the group is unknown.
 */
final class ThreadPools {
  private static final Pattern INDEXED = Pattern.compile("^(.*?)(?:[-_# ]?(?:thread|worker))?[-_# ]?\\d+$");

  static String poolOf(String threadName, String groupName) {
    Matcher m = INDEXED.matcher(threadName);
    if (m.matches() && !m.group(1).isEmpty()) {
      return m.group(1);
    }
    return groupName == null || groupName.isEmpty() ? "other" : groupName;
  }

  private ThreadPools() {}
}
