package dev.bottlenose.agent;

import dev.bottlenose.agent.discovery.ThreadPools;
import dev.bottlenose.agent.wire.Holders;
import dev.bottlenose.agent.wire.HoldersReply;
import dev.bottlenose.model.CodePaths;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who holds the locks others wait for, and what the holder does meanwhile: a few thread dumps with their locks
 * ({@link ThreadMXBean#dumpAllThreads(boolean, boolean, int)}, one safepoint each), a short interval apart. For each
 * thread blocked on a monitor or parked on a {@code java.util.concurrent} lock that a thread owns, the owner's
 * state and top {@value #DEPTH} frames are counted, by lock and what the owner was doing, with the waiting threads
 * and their pools (as discovery names them, so that a finding on a pool finds its holders). The agent's own
 * threads are left out.
 */
final class LockHolders {
  static final int DEPTH = 24;
  private static final String OWN_THREADS = "bottlenose-";

  private LockHolders() {}

  static HoldersReply look(Holders asked) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    boolean synchronizers = mx.isSynchronizerUsageSupported();
    Map<List<Object>, Counted> counted = new LinkedHashMap<>();
    int looks = 0;
    Map<Long, Thread> live = null;
    for (int i = 0; i < asked.looks(); i++) {
      if (i > 0 && !pause(asked.intervalMillis())) {
        break;
      }
      ThreadInfo[] dump = mx.dumpAllThreads(mx.isObjectMonitorUsageSupported(), synchronizers, DEPTH);
      looks++;
      Map<Long, ThreadInfo> byId = new HashMap<>();
      for (ThreadInfo t : dump) {
        if (t != null) {
          byId.put(t.getThreadId(), t);
        }
      }
      Map<List<Object>, Set<ThreadInfo>> waitersThisLook = new LinkedHashMap<>();
      for (ThreadInfo waiter : dump) {
        if (waiter == null || waiter.getLockOwnerId() < 0 || waiter.getLockInfo() == null
            || waiter.getThreadName().startsWith(OWN_THREADS)) {
          continue;
        }
        ThreadInfo owner = byId.get(waiter.getLockOwnerId());
        if (owner == null) {
          continue;
        }
        List<Object> key = List.of(lockName(waiter), owner.getThreadName(), owner.getThreadState().name(), stack(owner));
        waitersThisLook.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(waiter);
      }
      if (!waitersThisLook.isEmpty() && live == null) {
        live = ThreadPools.liveThreads();
      }
      for (Map.Entry<List<Object>, Set<ThreadInfo>> e : waitersThisLook.entrySet()) {
        Counted c = counted.computeIfAbsent(e.getKey(), k -> new Counted());
        c.seen++;
        for (ThreadInfo waiter : e.getValue()) {
          c.waiters.add(waiter.getThreadName());
          Thread t = live.get(waiter.getThreadId());
          if (t == null) {
            // started after the threads were listed (a pool growing between looks): list them again, once a thread
            live = ThreadPools.liveThreads();
            t = live.get(waiter.getThreadId());
          }
          ThreadGroup group = t == null ? null : t.getThreadGroup();
          c.pools.add(ThreadPools.poolOf(waiter.getThreadName(), group == null ? null : group.getName()));
        }
      }
    }
    List<HoldersReply.Held> held = new ArrayList<>();
    counted.forEach((key, c) -> {
      @SuppressWarnings("unchecked")
      List<String> stack = (List<String>) key.get(3);
      held.add(new HoldersReply.Held((String) key.get(0), (String) key.get(1), (String) key.get(2), stack, c.seen,
          new ArrayList<>(c.waiters), new ArrayList<>(c.pools)));
    });
    held.sort((a, b) -> Integer.compare(b.seen(), a.seen()));
    return new HoldersReply(looks, held);
  }

  /** {@code monitor com.acme.Cache} for a monitor, {@code lock <its class>} for a {@code java.util.concurrent} lock. */
  private static String lockName(ThreadInfo waiter) {
    LockInfo lock = waiter.getLockInfo();
    return (waiter.getThreadState() == Thread.State.BLOCKED ? "monitor " : "lock ") + lock.getClassName();
  }

  /** The thread's frames, top first, as {@code /Code/<package>/<Class>/<method>} (no descriptor: a stack has none). */
  private static List<String> stack(ThreadInfo t) {
    List<String> frames = new ArrayList<>();
    for (StackTraceElement e : t.getStackTrace()) {
      frames.add(CodePaths.method(e.getClassName(), e.getMethodName(), null).toString());
    }
    return frames;
  }

  private static boolean pause(long millis) {
    try {
      Thread.sleep(millis);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static final class Counted {
    int seen;
    final Set<String> waiters = new LinkedHashSet<>();
    final Set<String> pools = new LinkedHashSet<>();
  }
}
