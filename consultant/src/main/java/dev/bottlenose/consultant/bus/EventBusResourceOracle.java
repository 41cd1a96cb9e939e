package dev.bottlenose.consultant.bus;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.protocol.BadField;
import dev.bottlenose.bus.protocol.DaemonReplies;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.bus.protocol.DaemonRequests.CallGraph.Part;
import dev.bottlenose.consultant.ResourceChild;
import dev.bottlenose.consultant.ResourceOracle;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link ResourceOracle} over the daemons' {@code resources} and {@code callgraph} requests: the
 * children of a path are the union of what every daemon of the search has below it, asked once per path
 * and kept for the search. A {@code /Code} method's children are its callees in the sampled call graph
 * (those that took at least {@value #MIN_CALLEE_SHARE} of its samples); a package's or class's children
 * carry their sample counts summed over the daemons, 0 for code the program did not run while it was
 * sampled. Below {@value #MIN_SAMPLES} samples (all daemons' together: a nearly idle JVM beside a busy
 * one takes few) the call graphs say nothing about what did not run, and the counts are {@link
 * ResourceChild#UNKNOWN}. Each child also carries how many of the daemons' recorded slow reads and writes
 * had it on the stack (their {@code io} graph; unknown below {@value #MIN_IO_WAITS}), and a method's
 * callees include those its slow I/O went through: a thread blocked in a read is not running, so its
 * execution samples do not show where it waits. The same goes for contended monitor entries, monitor waits
 * and parks (the {@code sync} graph; unknown below {@value #MIN_SYNC_WAITS}). A package's or class's
 * children also carry how many of the JIT's recent compilations were of their code (the {@code jit} graph;
 * unknown below {@value #MIN_COMPILATIONS}) and how many of the classes recently defined were counted at them (the
 * {@code load} graph; unknown below {@value #MIN_LOADS}). An allocated type ({@code /Memory/<type>}) carries the
 * allocation samples of it since the attach and the bytes they stand for (its {@code samples} and
 * {@code sampledBytes} attributes), summed over the daemons.
 *
 * <p>A daemon that fails to answer makes that path childless for this step (not cached). It blocks on
 * the event bus, so it must be called from a worker thread, never from an event loop.
 */
public final class EventBusResourceOracle implements ResourceOracle {
  static final long MIN_SAMPLES = 20;
  /** An allocated type's attributes (the agent's {@code MemorySites}): JFR's allocation samples and their bytes. */
  static final String ALLOCATION_SAMPLES = "samples";
  static final String ALLOCATED_BYTES = "sampledBytes";
  /** Slow reads and writes recorded (all daemons together) below which the I/O graph says nothing. */
  static final long MIN_IO_WAITS = 5;
  /** Contended entries, waits and parks recorded (all daemons together) below which the sync graph says nothing. */
  static final long MIN_SYNC_WAITS = 5;
  /** Compilations recorded (all daemons together) below which the JIT graph says nothing. */
  static final long MIN_COMPILATIONS = 5;
  /** Classes defined (all daemons together) below which the load graph says nothing. */
  static final long MIN_LOADS = 5;
  private static final String CPU = "cpu";
  private static final String IO = "io";
  private static final String JIT = "jit";
  private static final String SYNC = "sync";
  private static final String LOAD = "load";
  static final double MIN_CALLEE_SHARE = 0.05;
  private static final int CALLEE_LIMIT = 50;
  private static final int CHILD_LIMIT = 10_000;

  private final Vertx vertx;
  private final List<String> daemonIds;
  private final Duration timeout;
  private final Map<ResourcePath, List<ResourceChild>> cache = new ConcurrentHashMap<>();

  public EventBusResourceOracle(Vertx vertx, List<String> daemonIds, Duration timeout) {
    this.vertx = vertx;
    this.daemonIds = List.copyOf(daemonIds);
    this.timeout = timeout;
  }

  @Override
  public List<ResourceChild> children(ResourcePath path) {
    try {
      return cache.computeIfAbsent(path, p -> p.isMethod() ? callees(p) : contained(p));
    } catch (IllegalStateException e) {
      return List.of();
    }
  }

  @Override
  public List<ResourceChild> childrenNow(ResourcePath path) {
    try {
      List<ResourceChild> now = path.isMethod() ? callees(path) : contained(path);
      cache.put(path, now);
      return now;
    } catch (IllegalStateException e) {
      return children(path);
    }
  }

  /**
   * The methods most often on top of the daemons' sampled stacks, each with its share of all samples,
   * hottest first; empty while fewer than {@value #MIN_SAMPLES} samples were taken.
   */
  public Map<ResourcePath, Double> hotMethods(int limit) {
    return hot(CPU, false, limit, MIN_SAMPLES);
  }

  /**
   * The program's own methods most often the topmost of its code on the stacks of its threads in a native
   * read, write or sync (or a slow read or write), each with its share of those stacks: the method that does the
   * I/O, below the platform's streams and channels; empty while fewer than {@value #MIN_IO_WAITS} were recorded.
   * The daemons' {@code io} graph halves its counts every 30 s, so this follows what the program does now.
   */
  public Map<ResourcePath, Double> ownIoMethods(int limit) {
    return hot(IO, true, limit, MIN_IO_WAITS);
  }

  private Map<ResourcePath, Double> hot(String graphName, boolean own, int limit, long minSamples) {
    Map<ResourcePath, Long> self = new LinkedHashMap<>();
    long samples = 0;
    for (String id : daemonIds) {
      DaemonReplies.CallGraph graph = callGraph(id, Hierarchy.CODE.root(), limit, graphName, own ? Part.HOT_OWN : Part.HOT);
      if (graph == null) {
        continue;
      }
      samples += graph.samples();
      for (DaemonReplies.HotMethod m : own ? graph.hotOwn() : graph.hot()) {
        self.merge(m.method(), m.self(), Long::sum);
      }
    }
    Map<ResourcePath, Double> shares = new LinkedHashMap<>();
    if (samples >= minSamples) {
      long all = samples;
      self.entrySet().stream().sorted(Map.Entry.<ResourcePath, Long>comparingByValue().reversed()).limit(limit)
          .forEach(e -> shares.put(e.getKey(), Math.min(1.0, (double) e.getValue() / all)));
    }
    return shares;
  }

  private List<ResourceChild> contained(ResourcePath path) {
    Set<ResourcePath> found = new LinkedHashSet<>();
    boolean memory = path.hierarchy() == Hierarchy.MEMORY;
    Map<ResourcePath, long[]> allocations = new LinkedHashMap<>();
    for (String id : daemonIds) {
      for (DaemonReplies.Resource r : resources(id, path).resources()) {
        ResourcePath p = r.path();
        boolean tool = "true".equals(r.attributes().get(Resource.TOOL));
        if (!p.isRoot() && p.parent().equals(path) && !tool) {
          found.add(p);
          if (memory) {
            long[] sum = allocations.computeIfAbsent(p, k -> new long[2]);
            sum[0] += number(r.attributes().get(ALLOCATION_SAMPLES));
            sum[1] += number(r.attributes().get(ALLOCATED_BYTES));
          }
        }
      }
    }
    boolean code = path.hierarchy() == Hierarchy.CODE;
    Map<ResourcePath, Long> samples = code ? sampledChildren(path, CPU, MIN_SAMPLES) : null;
    Map<ResourcePath, Long> ioWaits = code ? sampledChildren(path, IO, MIN_IO_WAITS) : null;
    Map<ResourcePath, Long> compilations = code ? sampledChildren(path, JIT, MIN_COMPILATIONS) : null;
    Map<ResourcePath, Long> syncWaits = code ? sampledChildren(path, SYNC, MIN_SYNC_WAITS) : null;
    Map<ResourcePath, Long> loads = code ? sampledChildren(path, LOAD, MIN_LOADS) : null;
    List<ResourceChild> children = new ArrayList<>();
    for (ResourcePath p : found) {
      long[] allocated = allocations.get(p);
      children.add(new ResourceChild(path, p, ResourceChild.CONTAINS, count(samples, p), count(ioWaits, p),
          count(compilations, p), count(syncWaits, p), count(loads, p),
          allocated == null ? ResourceChild.UNKNOWN : allocated[0], allocated == null ? ResourceChild.UNKNOWN : allocated[1]));
    }
    return List.copyOf(children);
  }

  /** A count attribute of a resource, 0 when absent or not a number (a daemon of another version). */
  private static long number(String attribute) {
    try {
      return attribute == null ? 0 : Long.parseLong(attribute);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static long count(Map<ResourcePath, Long> counts, ResourcePath p) {
    return counts == null ? ResourceChild.UNKNOWN : counts == TOO_FEW ? ResourceChild.NOT_YET : counts.getOrDefault(p, 0L);
  }

  /** What {@link #sampledChildren} answers while the daemons have recorded too few to tell (compared by identity). */
  private static final Map<ResourcePath, Long> TOO_FEW = java.util.Collections.unmodifiableMap(new LinkedHashMap<>());

  /**
   * Samples of {@code graph} per child of a /Code path summed over the daemons; {@link #TOO_FEW} when they took
   * fewer than {@code atLeast} between them; null when a daemon has no such graph to give.
   */
  private Map<ResourcePath, Long> sampledChildren(ResourcePath path, String graphName, long atLeast) {
    Map<ResourcePath, Long> counts = new LinkedHashMap<>();
    long samples = 0;
    for (String id : daemonIds) {
      DaemonReplies.CallGraph graph = callGraph(id, path, CHILD_LIMIT, graphName, Part.CHILDREN);
      if (graph == null) {
        return null;
      }
      samples += graph.samples();
      for (DaemonReplies.GraphChild c : graph.children()) {
        counts.merge(c.path(), c.samples(), Long::sum);
      }
    }
    return samples < atLeast ? TOO_FEW : counts;
  }

  /**
   * The callees that took at least {@value #MIN_CALLEE_SHARE} of the method's execution samples, of its slow
   * I/O or of its contended waits.
   */
  private List<ResourceChild> callees(ResourcePath method) {
    Map<ResourcePath, Long> cpu = new LinkedHashMap<>();
    callees(method, CPU, cpu);
    Map<ResourcePath, Long> io = new LinkedHashMap<>();
    boolean ioKnown = callees(method, IO, io) >= MIN_IO_WAITS;
    Map<ResourcePath, Long> sync = new LinkedHashMap<>();
    boolean syncKnown = callees(method, SYNC, sync) >= MIN_SYNC_WAITS;
    Set<ResourcePath> all = new LinkedHashSet<>(cpu.keySet());
    all.addAll(io.keySet());
    all.addAll(sync.keySet());
    List<ResourceChild> children = new ArrayList<>();
    for (ResourcePath callee : all) {
      children.add(new ResourceChild(method, callee, ResourceChild.CALLS, cpu.getOrDefault(callee, 0L),
          ioKnown ? io.getOrDefault(callee, 0L) : ResourceChild.UNKNOWN, ResourceChild.UNKNOWN,
          syncKnown ? sync.getOrDefault(callee, 0L) : ResourceChild.UNKNOWN));
    }
    return List.copyOf(children);
  }

  /** Adds the method's callees in {@code graphName} to {@code calls}; returns the method's samples there. */
  private long callees(ResourcePath method, String graphName, Map<ResourcePath, Long> calls) {
    long total = 0;
    for (String id : daemonIds) {
      DaemonReplies.CallGraph graph = callGraph(id, method, CALLEE_LIMIT, graphName, Part.CHILDREN);
      if (graph == null) {
        continue;
      }
      total += graph.total();
      long floor = Math.max(1, (long) Math.ceil(MIN_CALLEE_SHARE * graph.total()));
      for (DaemonReplies.GraphChild c : graph.children()) {
        if (c.samples() >= floor) {
          calls.merge(c.path(), c.samples(), Long::sum);
        }
      }
    }
    return total;
  }

  /**
   * The {@code part} of the daemon's call graph {@code graphName} at {@code path}, or null when it has none to give
   * (an older daemon, a failure).
   */
  private DaemonReplies.CallGraph callGraph(String daemonId, ResourcePath path, int limit, String graphName, Part part) {
    try {
      return read(DaemonReplies.CallGraph::from, request(Addresses.callGraph(daemonId),
          new DaemonRequests.CallGraph(path, limit, graphName, Set.of(part)).toJson(), "give the call graph at " + path,
          daemonId), "give the call graph at " + path, daemonId);
    } catch (IllegalStateException e) {
      return null;
    }
  }

  private DaemonReplies.Resources resources(String daemonId, ResourcePath path) {
    JsonObject body = new DaemonRequests.Resources(path, 1).toJson();
    try {
      return read(DaemonReplies.Resources::from, request(Addresses.resources(daemonId), body, "list " + path, daemonId),
          "list " + path, daemonId);
    } catch (NotFound e) {
      return new DaemonReplies.Resources(List.of());
    }
  }

  /** A reply read into its record; one with a bad field fails as a request the daemon could not answer. */
  private static <T> T read(java.util.function.Function<Object, T> from, JsonObject reply, String what,
      String daemonId) {
    try {
      return from.apply(reply);
    } catch (BadField e) {
      throw new IllegalStateException("daemon " + daemonId + " could not " + what + ": its reply has a bad field: "
          + e.getMessage(), e);
    }
  }

  private JsonObject request(String address, JsonObject body, String what, String daemonId) {
    try {
      return vertx.eventBus().<JsonObject>request(address, body)
          .toCompletionStage().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS).body();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof ReplyException r && r.failureCode() == DaemonProtocol.NOT_FOUND) {
        throw new NotFound("daemon " + daemonId + " could not " + what + ": " + r.getMessage());
      }
      throw new IllegalStateException("daemon " + daemonId + " could not " + what + ": " + e.getCause().getMessage(), e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("daemon " + daemonId + " did not " + what + " within " + timeout.toMillis() + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while asking daemon " + daemonId + " to " + what, e);
    }
  }

  private static final class NotFound extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    NotFound(String message) {
      super(message);
    }
  }
}
