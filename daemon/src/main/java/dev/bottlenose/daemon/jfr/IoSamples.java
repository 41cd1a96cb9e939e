package dev.bottlenose.daemon.jfr;

import dev.bottlenose.agent.sources.WatchedSource;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.LongUnaryOperator;

/**
 * The {@code io_sample} sources' matches, counted as JFR's I/O events count: when the read, write or sync
 * returns. A thread blocked in a read for a whole stretch between two flushes, using no CPU at all (a thread
 * waiting for a line on standard input, for a connection's next request, for a slow query's answer), has its
 * samples held until it moves on; they count then, with the stretch in which its CPU time grew again, and a
 * read that never returns counts nothing, as no I/O event would be recorded for it. Without it every program
 * with a console reader was found I/O-bound. A thread whose CPU time cannot be read counts at once.
 */
final class IoSamples {
  /** Samples held per thread and source at most, past which the oldest wait is let go (at 20 ms, 10 minutes). */
  static final long MAX_HELD = 30_000;

  private final LongUnaryOperator threadCpu;
  private final Map<Long, Map<WatchedSource, Long>> stretch = new HashMap<>();
  private final Map<Long, Map<WatchedSource, long[]>> held = new HashMap<>();
  private final Map<Long, Long> cpuAtLastFlush = new HashMap<>();

  /** {@code threadCpu}: a thread's CPU time in ns by OS thread id, -1 if unknown; null: never known. */
  IoSamples(LongUnaryOperator threadCpu) {
    this.threadCpu = threadCpu;
  }

  void matched(WatchedSource s, long tid) {
    stretch.computeIfAbsent(tid, k -> new HashMap<>()).merge(s, 1L, Long::sum);
  }

  boolean pending() {
    return !stretch.isEmpty() || !held.isEmpty();
  }

  /** Adds what the stretch that just ended completed, each sample standing for {@code each} ns. */
  void settle(long each) {
    Map<Long, Long> cpuNow = new HashMap<>();
    for (Long tid : union()) {
      long cpu = threadCpu == null ? -1 : threadCpu.applyAsLong(tid);
      Long before = cpuAtLastFlush.get(tid);
      cpuNow.put(tid, cpu);
      Map<WatchedSource, Long> now = stretch.getOrDefault(tid, Map.of());
      boolean moved = cpu < 0 || before != null && before >= 0 && cpu > before;
      if (moved) {
        Map<WatchedSource, long[]> waited = held.remove(tid);
        if (waited != null) {
          waited.forEach((s, cn) -> s.add(cn[0], cn[1], 0));
        }
        now.forEach((s, n) -> s.add(n, n * each, 0));
      } else {
        Map<WatchedSource, long[]> waiting = held.computeIfAbsent(tid, k -> new HashMap<>());
        now.forEach((s, n) -> {
          long[] cn = waiting.computeIfAbsent(s, k -> new long[2]);
          if (cn[0] + n > MAX_HELD) {
            cn[0] = 0;
            cn[1] = 0;
          }
          cn[0] += n;
          cn[1] += n * each;
        });
      }
    }
    stretch.clear();
    cpuAtLastFlush.clear();
    cpuAtLastFlush.putAll(cpuNow);
  }

  /** Forgets {@code s} (no longer watched). */
  void forget(WatchedSource s) {
    for (Iterator<Map<WatchedSource, long[]>> it = held.values().iterator(); it.hasNext();) {
      Map<WatchedSource, long[]> m = it.next();
      m.remove(s);
      if (m.isEmpty()) {
        it.remove();
      }
    }
  }

  private java.util.Set<Long> union() {
    java.util.Set<Long> tids = new java.util.HashSet<>(stretch.keySet());
    tids.addAll(held.keySet());
    return tids;
  }
}
