package dev.bottlenose.daemon.jfr;

import dev.bottlenose.bus.protocol.DaemonRequests;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The daemon's graphs of the target's code, each a {@link CallGraph} kept from the recording's events, by name:
 * {@code cpu} (execution samples), {@code wait} (the stacks of the waits discovery records, sleeps,
 * {@code Object.wait}s, parks, contended monitor entries and slow I/O, each weighing the microseconds it waited:
 * where the program's threads spend their time off the CPU), {@code io} (the stacks of slow reads and writes),
 * {@code sync} (the stacks of contended monitor entries and of parks on a lock), {@code jit} (the methods the JIT compiled, no stacks),
 * {@code alloc} (the stacks of JFR's allocation samples: the code that allocates) and {@code load} (the classes
 * defined, each counted at the class whose loader defined it, or at itself when one of the JDK's loaders did; no
 * stacks).
 * The waits' graphs tell the code that blocks from code that never does (a blocked thread is not running, so
 * execution samples do not see it); the JIT's, the code it compiles from code it does not.
 */
public final class CallGraphs {
  public static final String CPU = "cpu";
  public static final String WAIT = DaemonRequests.Stacks.WAIT;
  public static final String IO = "io";
  public static final String SYNC = "sync";
  public static final String JIT = "jit";
  public static final String ALLOC = "alloc";
  public static final String LOAD = "load";
  /** The graphs' names: the bus protocol's list ({@link DaemonRequests.Stacks#GRAPHS}), which holds the seven above. */
  public static final List<String> NAMES = List.copyOf(DaemonRequests.Stacks.GRAPHS.keySet());

  static {
    if (!NAMES.containsAll(List.of(CPU, WAIT, IO, SYNC, JIT, ALLOC, LOAD))) {
      throw new ExceptionInInitializerError("the bus protocol's stack graphs " + NAMES + " lack one of the daemon's");
    }
  }

  private final Map<String, CallGraph> byName = new LinkedHashMap<>();

  public CallGraphs() {
    for (String name : NAMES) {
      byName.put(name, new CallGraph());
    }
  }

  /** The graph called {@code name}, or null for an unknown name. */
  public CallGraph get(String name) {
    return byName.get(name);
  }

  /** The reader has handled a flush ({@link CallGraph#flushed}). */
  public void flushed() {
    byName.values().forEach(CallGraph::flushed);
  }

  /** Halves every graph's counts ({@link CallGraph#decay}). */
  public void decay() {
    byName.values().forEach(CallGraph::decay);
  }
}
