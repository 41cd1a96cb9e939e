package dev.bottlenose.agent.discovery;

import static dev.bottlenose.agent.wire.Jfr.ALLOCATIONS;
import static dev.bottlenose.agent.wire.Jfr.COMPILATIONS;
import static dev.bottlenose.agent.wire.Jfr.DEOPTIMIZATIONS;
import static dev.bottlenose.agent.wire.Jfr.FILES;
import static dev.bottlenose.agent.wire.Jfr.GC;
import static dev.bottlenose.agent.wire.Jfr.LOCKS;
import static dev.bottlenose.agent.wire.Jfr.MONITORS;
import static dev.bottlenose.agent.wire.Jfr.PINNED;
import static dev.bottlenose.agent.wire.Jfr.SOCKETS;
import static dev.bottlenose.agent.wire.Jfr.VM_OPERATIONS;

import dev.bottlenose.agent.wire.Jfr;
import java.util.List;
import java.util.Map;

/**
 * Puts a daemon's digest of JFR events ({@code daemon.jfr.DiscoveryEvents#drain()}) into discovery, in the agent: each
 * kind ({@link Jfr#KINDS}) is a list of tuples, one per event or, with a count last, one per sum of events. A
 * malformed tuple is skipped and counted, never thrown on.
 */
public final class JfrDigest {

  private final SyncObjects sync;
  private final MemorySites memory;
  private final IoDiscovery io;
  private final VmDiscovery vm;
  private final MonitorWaits monitorWaits;
  private final VirtualThreads virtualThreads;

  JfrDigest(SyncObjects sync, MemorySites memory, IoDiscovery io, VmDiscovery vm, MonitorWaits monitorWaits,
      VirtualThreads virtualThreads) {
    this.sync = sync;
    this.memory = memory;
    this.io = io;
    this.vm = vm;
    this.monitorWaits = monitorWaits;
    this.virtualThreads = virtualThreads;
  }

  /** Applies every tuple of {@code digest}; how many were applied. */
  int apply(Jfr digest) {
    int applied = 0;
    for (Map.Entry<String, List<List<?>>> kind : digest.kinds().entrySet()) {
      for (List<?> f : kind.getValue()) {
        try {
          if (apply(kind.getKey(), f)) {
            applied++;
          }
        } catch (RuntimeException e) {
          vm.handlerFailed("jfr " + kind.getKey(), e);
        }
      }
    }
    return applied;
  }

  private boolean apply(String kind, List<?> f) {
    switch (kind) {
      case MONITORS -> {
        long nanos = number(f, 1);
        if (!text(f, 0).isEmpty()) {
          sync.contendedMonitor(text(f, 0), nanos, count(f, 5));
        }
        vm.monitorBlocked(nanos);
        if (!text(f, 2).isEmpty()) {
          monitorWaits.add(text(f, 2), text(f, 3), text(f, 4), nanos);
        }
      }
      case LOCKS -> sync.contendedLock(text(f, 0), number(f, 1), count(f, 2));
      case ALLOCATIONS -> memory.sampled(text(f, 0), text(f, 1), number(f, 2), count(f, 3));
      case FILES -> io.fileOperation(text(f, 0), flag(f, 1), number(f, 2), number(f, 3));
      case SOCKETS -> io.socketOperation(text(f, 0), flag(f, 1), number(f, 2), number(f, 3));
      case GC -> vm.gcPause(text(f, 0), number(f, 1));
      case COMPILATIONS -> vm.compilation((int) number(f, 0), text(f, 1), number(f, 2), count(f, 3));
      case VM_OPERATIONS -> vm.vmOperation(text(f, 0), flag(f, 1), number(f, 2));
      case DEOPTIMIZATIONS -> vm.deoptimization(text(f, 0));
      case PINNED -> virtualThreads.pinned(number(f, 0), text(f, 1).isEmpty() ? null : text(f, 1));
      default -> {
        return false;
      }
    }
    return true;
  }

  private static String text(List<?> f, int i) {
    return String.valueOf(f.get(i));
  }

  private static long number(List<?> f, int i) {
    return ((Number) f.get(i)).longValue();
  }

  /** The count of events a summed tuple stands for, at {@code i}: 1 when absent (one tuple an event). */
  private static long count(List<?> f, int i) {
    return f.size() > i ? number(f, i) : 1;
  }

  private static boolean flag(List<?> f, int i) {
    return Boolean.TRUE.equals(f.get(i));
  }
}
