package dev.bottlenose.daemon.jfr;

import dev.bottlenose.agent.sources.ToolCode;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.model.CodePaths;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;

/**
 * The sampled call graph of the application's threads, from JFR execution samples: per {@code /Code}
 * package, class and method the samples with it on the stack ({@code total}), per method the samples
 * with it on top ({@code self}) and those with it as the topmost frame of the program's own code, below
 * the platform's ({@code own}: for a stack in a native read, the program's method that reads), and per
 * caller → callee edge the samples that went through it; and the stacks themselves merged into a tree, for a
 * flame graph ({@link #stacks}). Counts
 * are halved every {@link #HALF_LIFE_MILLIS}, so they follow what the program does now. Bounded: past
 * {@link #MAX_NODES} resources or {@link #MAX_EDGES} edges, new ones are not recorded.
 */
public final class CallGraph {
  public static final long HALF_LIFE_MILLIS = 30_000;
  static final int MAX_NODES = 20_000;
  static final int MAX_EDGES = 50_000;
  /**
   * How many calls away a method can have been compiled into another: HotSpot's {@code MaxInlineLevel} (15 since
   * JDK 14). A method this far up the stacks from a class may have it inlined; one further cannot.
   */
  static final int INLINE_LEVELS = 15;
  /** At most this many callers and callees are listed. */
  static final int MAX_REACH = 500;
  private static final ResourcePath ROOT = Hierarchy.CODE.root();
  private static final String CODE_PREFIX = ROOT + "/";

  private final Map<MethodKey, String[]> pathsOf = new HashMap<>();
  private final Map<String, Node> nodes = new HashMap<>();
  private final Map<String, Map<String, long[]>> edges = new HashMap<>();
  private int edgeCount;
  private long samples;
  private final StackTree stacks = new StackTree();
  private final PerFlush<RecordedStackTrace, Counted> byStack = new PerFlush<>(st -> Counted.of(paths(st.getFrames())));
  /** A method's paths ({@link #NONE} for the tool's own), worked out once a flush for all the stacks it is on. */
  private final PerFlush<RecordedMethod, String[]> byMethod = new PerFlush<>(m -> {
    String[] p = paths(m);
    return p == null ? NONE : p;
  });
  private static final String[] NONE = new String[0];

  private record MethodKey(String type, String name, String descriptor) {}

  private static final class Node {
    final String parent;
    long total;
    long self;
    long own;

    Node(String parent) {
      this.parent = parent;
    }
  }

  /**
   * One event's stack, top frame first; returns what it recorded: per Java frame (tool code and methods past the
   * graph's size left out) its package, class and method paths, the same list for the same stack until the next
   * {@link #flushed} (do not change it).
   */
  public synchronized List<String[]> sampled(RecordedStackTrace stack) {
    return sampled(stack, 1);
  }

  /**
   * As {@link #sampled(RecordedStackTrace)}, counted {@code weight} times: a wait's stack weighs the time it waited
   * (the wait graph counts microseconds, {@link CallGraphs#WAIT}).
   */
  public synchronized List<String[]> sampled(RecordedStackTrace stack, long weight) {
    Counted c = byStack.get(stack);
    record(c, weight);
    return c.stack();
  }

  /** As {@link #sampled(RecordedStackTrace)}, for a stack's frames kept past a flush. */
  public synchronized List<String[]> sampled(List<RecordedFrame> frames) {
    List<String[]> paths = paths(frames);
    record(Counted.of(paths), 1);
    return paths;
  }

  /** The reader has handled a flush: the stacks it names are worked out again from the next one. */
  public synchronized void flushed() {
    byStack.clear();
    byMethod.clear();
  }

  private List<String[]> paths(List<RecordedFrame> frames) {
    List<String[]> stack = new ArrayList<>(frames.size());
    for (RecordedFrame f : frames) {
      RecordedMethod m = f.isJavaFrame() ? f.getMethod() : null;
      String[] p = m == null ? NONE : byMethod.get(m);
      if (p != NONE) {
        stack.add(p);
      }
    }
    return stack;
  }

  /** One occurrence of {@code m} with nothing above it (a compilation, which has no stack); tool code is not counted. */
  public synchronized void counted(RecordedMethod m) {
    String[] p = paths(m);
    if (p != null) {
      record(List.<String[]>of(p));
    }
  }

  /**
   * One occurrence of class {@code binaryClassName} with no method or stack above it (a class defined): counted at
   * the class and its package; tool classes are not counted.
   */
  public synchronized void countedClass(String binaryClassName) {
    if (binaryClassName == null || ToolCode.isToolClass(binaryClassName)) {
      return;
    }
    ResourcePath type = CodePaths.ofClass(binaryClassName);
    String pkg = type.parent().toString();
    Node inPackage = node(pkg, ROOT.toString());
    Node inClass = inPackage == null ? null : node(type.toString(), pkg);
    if (inClass != null) {
      samples++;
      inPackage.total++;
      inClass.total++;
    }
  }

  /** Counts one stack of package, class and method paths, top frame first. */
  void record(List<String[]> stack) {
    record(Counted.of(stack), 1);
  }

  private void record(Counted c, long weight) {
    if (c.methods.isEmpty() || weight <= 0) {
      return;
    }
    samples += weight;
    stacks.add(c.methods, weight);
    for (int i = 0; i < c.paths.length; i++) {
      Node n = node(c.paths[i], c.parents[i]);
      if (n != null) {
        n.total += weight;
      }
    }
    Node top = nodes.get(c.methods.get(0));
    if (top != null) {
      top.self += weight;
    }
    Node own = c.own == null ? null : nodes.get(c.own);
    if (own != null) {
      own.own += weight;
    }
    for (int i = 0; i < c.callers.length; i++) {
      edge(c.callers[i], c.callees[i], weight);
    }
  }

  /**
   * What one stack adds to the graph, worked out once per stack: its methods top first, each package, class and
   * method path once with its parent, the program's topmost method and each caller → callee edge once.
   */
  private record Counted(List<String[]> stack, List<String> methods, String[] paths, String[] parents, String own,
      String[] callers, String[] callees) {
    static Counted of(List<String[]> stack) {
      List<String> methods = new ArrayList<>(stack.size());
      for (String[] p : stack) {
        methods.add(p[2]);
      }
      Map<String, String> parentOf = new LinkedHashMap<>();
      for (String[] p : stack) {
        for (int level = 0; level < p.length; level++) {
          parentOf.putIfAbsent(p[level], level == 0 ? ROOT.toString() : p[level - 1]);
        }
      }
      String own = null;
      for (String[] p : stack) {
        if (!CodePaths.inPlatformPackage(p[0].substring(CODE_PREFIX.length()))) {
          own = p[2];
          break;
        }
      }
      Map<String, Set<String>> calls = new LinkedHashMap<>();
      List<String> callers = new ArrayList<>();
      List<String> callees = new ArrayList<>();
      for (int i = 0; i + 1 < stack.size(); i++) {
        String callee = stack.get(i)[2];
        String caller = stack.get(i + 1)[2];
        if (calls.computeIfAbsent(caller, k -> new HashSet<>()).add(callee)) {
          callers.add(caller);
          callees.add(callee);
        }
      }
      return new Counted(List.copyOf(stack), List.copyOf(methods), parentOf.keySet().toArray(String[]::new),
          parentOf.values().toArray(String[]::new), own, callers.toArray(String[]::new), callees.toArray(String[]::new));
    }
  }

  /** Package, class and method path of a frame's method, or null for Bottlenose's own code. */
  private String[] paths(RecordedMethod m) {
    if (m == null || m.getType() == null) {
      return null;
    }
    MethodKey key = new MethodKey(m.getType().getName(), m.getName(), m.getDescriptor());
    String[] p = pathsOf.get(key);
    if (p == null && !ToolCode.isToolClass(key.type()) && pathsOf.size() < MAX_NODES) {
      ResourcePath method = CodePaths.method(key.type(), key.name(), key.descriptor());
      p = new String[] {method.parent().parent().toString(), method.parent().toString(), method.toString()};
      pathsOf.put(key, p);
    }
    return p;
  }

  private Node node(String path, String parent) {
    Node n = nodes.get(path);
    if (n == null && nodes.size() < MAX_NODES) {
      n = new Node(parent);
      nodes.put(path, n);
    }
    return n;
  }

  private void edge(String caller, String callee, long weight) {
    Map<String, long[]> out = edges.computeIfAbsent(caller, c -> new HashMap<>());
    long[] count = out.get(callee);
    if (count == null) {
      if (edgeCount >= MAX_EDGES) {
        return;
      }
      count = new long[1];
      out.put(callee, count);
      edgeCount++;
    }
    count[0] += weight;
  }

  /** Halves every count and forgets what reaches zero. */
  public synchronized void decay() {
    samples /= 2;
    stacks.decay();
    nodes.values().removeIf(n -> {
      n.total /= 2;
      n.self /= 2;
      n.own /= 2;
      return n.total == 0;
    });
    edges.values().forEach(out -> out.values().removeIf(c -> (c[0] /= 2) == 0));
    edges.values().removeIf(Map::isEmpty);
    edgeCount = edges.values().stream().mapToInt(Map::size).sum();
    if (nodes.isEmpty()) {
      pathsOf.clear();
      byStack.clear();
      byMethod.clear();
    }
  }

  /**
   * The sampled stacks as a tree from the outermost frame, its {@code max} nodes with the most samples:
   * {@code {"samples", "frames": [{"parent", "method", "total", "self"}, ...]}}, the root ({@code /Code}, parent
   * -1) first and every node after its parent ({@link StackTree#top}).
   */
  public synchronized Map<String, Object> stacks(int max) {
    return stacks.top(max);
  }

  /**
   * What was sampled at or below {@code path} ({@code /Code} or a package, class or method): its
   * samples, and of the {@code parts} asked for: its children with theirs (the classes of a package, the methods
   * of a class, the callees of a method), the {@code limit} methods under it most often on top of the stack (or
   * the topmost of the program's own code), and the methods within inlining reach of it.
   */
  public synchronized Map<String, Object> at(ResourcePath path, int limit, Set<DaemonRequests.CallGraph.Part> parts) {
    String key = path.toString();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("path", key);
    m.put("samples", samples);
    Node at = nodes.get(key);
    m.put("total", path.isRoot() ? samples : at == null ? 0 : at.total);
    if (parts.contains(DaemonRequests.CallGraph.Part.CHILDREN)) {
      m.put("children", path.depth() >= 3 ? callees(key, limit) : contained(key, limit));
    }
    if (parts.contains(DaemonRequests.CallGraph.Part.HOT)) {
      m.put("hot", hot(path, limit, false));
    }
    if (parts.contains(DaemonRequests.CallGraph.Part.HOT_OWN)) {
      m.put("hotOwn", hot(path, limit, true));
    }
    if (parts.contains(DaemonRequests.CallGraph.Part.REACH)) {
      m.put("callers", reach(path, true));
      m.put("callees", reach(path, false));
    }
    return m;
  }

  /** Every part of {@link #at(ResourcePath, int, Set)}. */
  public Map<String, Object> at(ResourcePath path, int limit) {
    return at(path, limit, EnumSet.allOf(DaemonRequests.CallGraph.Part.class));
  }

  /**
   * The methods outside {@code path} (a package, class or method) within {@link #INLINE_LEVELS} calls of its
   * methods on the sampled stacks: above them ({@code up}, the callers that may have compiled them in) or below
   * (the callees they may have compiled in), nearest first, with their samples; at most {@link #MAX_REACH}.
   */
  private List<Object> reach(ResourcePath path, boolean up) {
    List<Object> out = new ArrayList<>();
    if (path.isRoot()) {
      return out;
    }
    String key = path.toString();
    Map<String, Set<String>> next = up ? callersOf() : new HashMap<>();
    java.util.function.Function<String, Set<String>> step = up ? m -> next.getOrDefault(m, Set.of())
        : m -> edges.getOrDefault(m, Map.of()).keySet();
    Set<String> seen = new HashSet<>();
    List<String> frontier = new ArrayList<>();
    for (String method : up ? next.keySet() : edges.keySet()) {
      if (inside(method, key)) {
        seen.add(method);
        frontier.add(method);
      }
    }
    for (int level = 0; level < INLINE_LEVELS && !frontier.isEmpty() && out.size() < MAX_REACH; level++) {
      List<String> further = new ArrayList<>();
      for (String method : frontier) {
        for (String n : step.apply(method)) {
          if (!inside(n, key) && seen.add(n)) {
            further.add(n);
          }
        }
      }
      further.sort(Comparator.naturalOrder());
      for (String n : further) {
        if (out.size() < MAX_REACH) {
          Node node = nodes.get(n);
          out.add(entry("path", n, "samples", node == null ? 0 : node.total, "relation", up ? "caller" : "callee"));
        }
      }
      frontier = further;
    }
    return out;
  }

  /** Per method, the methods seen calling it. */
  private Map<String, Set<String>> callersOf() {
    Map<String, Set<String>> callers = new HashMap<>();
    edges.forEach((caller, out) -> out.keySet().forEach(callee -> callers.computeIfAbsent(callee, c -> new HashSet<>())
        .add(caller)));
    return callers;
  }

  /** Whether method path {@code method} is {@code path} or inside it. */
  private static boolean inside(String method, String path) {
    return method.equals(path) || method.startsWith(path) && method.charAt(path.length()) == '/';
  }

  private List<Object> contained(String parent, int limit) {
    List<Map.Entry<String, Node>> found = new ArrayList<>();
    for (Map.Entry<String, Node> e : nodes.entrySet()) {
      if (e.getValue().parent.equals(parent)) {
        found.add(e);
      }
    }
    found.sort(Comparator.comparingLong((Map.Entry<String, Node> e) -> -e.getValue().total).thenComparing(Map.Entry::getKey));
    List<Object> out = new ArrayList<>();
    for (Map.Entry<String, Node> e : found.subList(0, Math.min(limit, found.size()))) {
      out.add(entry("path", e.getKey(), "samples", e.getValue().total, "relation", "contains"));
    }
    return out;
  }

  private List<Object> callees(String caller, int limit) {
    List<Map.Entry<String, long[]>> found = new ArrayList<>(edges.getOrDefault(caller, Map.of()).entrySet());
    found.sort(Comparator.comparingLong((Map.Entry<String, long[]> e) -> -e.getValue()[0]).thenComparing(Map.Entry::getKey));
    List<Object> out = new ArrayList<>();
    for (Map.Entry<String, long[]> e : found.subList(0, Math.min(limit, found.size()))) {
      out.add(entry("path", e.getKey(), "samples", e.getValue()[0], "relation", "calls"));
    }
    return out;
  }

  /** The {@code limit} methods under {@code under} most often on top (or, {@code own}, topmost of the program's code). */
  private List<Object> hot(ResourcePath under, int limit, boolean own) {
    String prefix = under.depth() >= 3 ? under.toString() : under + "/";
    java.util.function.ToLongFunction<Node> count = own ? n -> n.own : n -> n.self;
    List<Map.Entry<String, Node>> found = new ArrayList<>();
    for (Map.Entry<String, Node> e : nodes.entrySet()) {
      if (count.applyAsLong(e.getValue()) > 0 && e.getKey().startsWith(prefix)) {
        found.add(e);
      }
    }
    found.sort(Comparator.comparingLong((Map.Entry<String, Node> e) -> -count.applyAsLong(e.getValue()))
        .thenComparing(Map.Entry::getKey));
    List<Object> out = new ArrayList<>();
    for (Map.Entry<String, Node> e : found.subList(0, Math.min(limit, found.size()))) {
      out.add(entry("method", e.getKey(), "self", count.applyAsLong(e.getValue()), "total", e.getValue().total));
    }
    return out;
  }

  private static Map<String, Object> entry(String k1, Object v1, String k2, Object v2, String k3, Object v3) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(k1, v1);
    m.put(k2, v2);
    m.put(k3, v3);
    return m;
  }
}
