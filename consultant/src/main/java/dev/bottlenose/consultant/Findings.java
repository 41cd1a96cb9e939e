package dev.bottlenose.consultant;

import dev.bottlenose.metrics.Numbers;
import dev.bottlenose.model.CodePaths;
import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ReadableNames;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.json.ModelJson;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The answer of a search: a short list of findings, each one cause (a hypothesis, the why) at one place (the
 * where), ranked by what it costs the program. Made from the search-history graph at any moment, so a running
 * search's findings grow as its verdicts come.
 *
 * <p>A finding starts from the graph's true leaves: true nodes none of whose children is true (a recursion the
 * search walked round, true all the way, is one leaf: the method it entered by, the others folded into it), whose
 * deciding value passes the bar of becoming true (a saved search from before verdicts had to be decisive may hold
 * nodes that became true inside the hysteresis band; they do not count as true here). Leaves that only restate
 * another fold into it:
 * <ul>
 *   <li>a leaf whose focus contains another's in every hierarchy (the same hypothesis at a thread, and at a
 *       method on that thread): the more specific one carries the evidence;</li>
 *   <li>a leaf whose hypothesis is refined by another leaf's at the same or a more specific focus, when the
 *       refined cause accounts for half its time or more (CPU-bound at a method that runs interpreted all the
 *       time it is on the CPU);</li>
 *   <li>leaves of one hypothesis at one place that differ only in their thread: one finding, its threads
 *       listed (a lock four threads wait for is one cause, not four).</li>
 * </ul>
 * The impact is time: seconds per second of the threads involved (a share of one thread's wall time, CPU
 * cores for CPU). A hypothesis measured in another unit (a share of the bytes allocated, bytes per operation)
 * takes its time from the nearest hypothesis above it in the graph that is measured in time (GC pauses times
 * the share; the I/O time of the small operations).
 */
public final class Findings {
  private static final String TIME = "fraction of time";
  private static final double RESTATES = 0.5;
  private static final String LOCK_CONTENTION = "sync_wait";
  /** How a finding names a pool of threads among its threads: {@code pool http-exec}. */
  private static final String POOL = "pool ";

  private Findings() {}

  /** One finding: why, where, how much it costs, the evidence, what it cost to find, what to do next. */
  public record Finding(
      int rank,
      String hypothesis,
      String why,
      Focus focus,
      String where,
      List<String> threads,
      List<String> programCode,
      Impact impact,
      Evidence evidence,
      double foundAfterSeconds,
      double measuringCost,
      String nextStep,
      List<Integer> nodeIds,
      List<Holder> holders,
      Flame flame) {

    public Finding {
      holders = List.copyOf(holders);
    }

    public Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("rank", rank);
      m.put("hypothesis", hypothesis);
      m.put("why", why);
      m.put("where", where);
      m.put("threads", threads);
      m.put("programCode", programCode);
      m.put("focus", ModelJson.toJson(focus));
      m.put("impact", impact.toJson());
      m.put("evidence", evidence.toJson());
      m.put("foundAfterSeconds", finite(foundAfterSeconds));
      m.put("measuringCost", finite(measuringCost));
      m.put("measuringCostText", Double.isNaN(measuringCost) ? null : costText(measuringCost));
      m.put("nextStep", nextStep);
      m.put("nodeIds", nodeIds);
      m.put("holders", holders.stream().map(Holder::toJson).toList());
      m.put("flame", flame == null ? null : flame.toJson());
      return m;
    }

    Finding ranked(int at) {
      return new Finding(at, hypothesis, why, focus, where, threads, programCode, impact, evidence, foundAfterSeconds,
          measuringCost, nextStep, nodeIds, holders, flame);
    }

    Finding withHolders(List<Holder> holders) {
      return new Finding(rank, hypothesis, why, focus, where, threads, programCode, impact, evidence, foundAfterSeconds,
          measuringCost, nextStep, nodeIds, holders, flame);
    }

    /** "; on thread main", "; on threads a, b", "; on pool client", or nothing when it is of every thread. */
    public String onThreads() {
      if (threads.isEmpty()) {
        return "";
      }
      boolean pools = threads.stream().anyMatch(t -> t.startsWith(POOL));
      return "; on " + (pools ? "" : threads.size() == 1 ? "thread " : "threads ") + String.join(", ", threads);
    }

    /** The finding as a few lines of text, for a terminal. */
    public String text() {
      StringBuilder sb = new StringBuilder();
      sb.append(rank).append(". ").append(why).append(" - ").append(impact.text()).append('\n');
      sb.append("   where: ").append(where).append(onThreads()).append('\n');
      if (!programCode.isEmpty()) {
        sb.append("   called from the program's ").append(String.join(", ", programCode)).append('\n');
      }
      sb.append("   evidence: ").append(evidence.text());
      if (!Double.isNaN(foundAfterSeconds)) {
        sb.append(String.format(Locale.ROOT, "; found %.1f s into the search", foundAfterSeconds));
      }
      if (!Double.isNaN(measuringCost)) {
        sb.append("; ").append(costText(measuringCost));
      }
      sb.append('\n');
      holders.forEach(h -> sb.append("   held by: ").append(h.text()).append('\n'));
      sb.append("   next: ").append(nextStep).append('\n');
      sb.append("   focus: ").append(focus).append('\n');
      return sb.toString();
    }
  }

  /**
   * Who held a contended lock of a lock-contention finding, at the last look (while the search ran, or as it ended):
   * the lock, the holder's thread and state, what it was doing (its top frames in Java's words, top first), in how
   * many of the look's thread dumps, and who waited.
   */
  public record Holder(String lock, String owner, String ownerState, List<String> doing, int seen, int looks,
      List<String> waiters) {
    static final int FRAMES = 4;

    static Holder of(SavedSearch.LockHolder h) {
      List<String> doing = h.ownerStack().stream().limit(FRAMES).map(Findings::frame).toList();
      return new Holder(h.lock(), h.owner(), h.ownerState(), doing, h.seen(), h.looks(), h.waiters());
    }

    /**
     * {@code monitor com.acme.Cache: thread audit (TIMED_WAITING) in java.lang.Thread.sleep <- com.acme.Log.append,
     * in 8 of 8 thread dumps; quote-0, quote-1 waited}.
     */
    public String text() {
      return lock + ": thread " + owner + " (" + ownerState + ")" + (doing.isEmpty() ? "" : " in " + String.join(" <- ", doing))
          + ", in " + seen + " of " + looks + " thread dumps; " + String.join(", ", waiters) + " waited";
    }

    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("lock", lock);
      m.put("owner", owner);
      m.put("ownerState", ownerState);
      m.put("doing", doing);
      m.put("seen", seen);
      m.put("looks", looks);
      m.put("waiters", waiters);
      m.put("text", text());
      return m;
    }
  }

  /**
   * A finding's flame graph: the graph of sampled stacks ({@code GET /api/jvms/{id}/stacks?graph=}) that samples what
   * its hypothesis counts, kept to the stacks through its place's code ({@code through}; null when its place names
   * no code: the whole graph), and what that shows in words ({@code CPU samples through com.acme.Cache.get(Object)}).
   * Which graph a cause is seen in is decided here alone, so that the page, the REST answer and {@code --json} agree.
   */
  public record Flame(String graph, ResourcePath through, String text) {
    /**
     * The graph of each hypothesis that has one; a hypothesis without takes its nearest ancestor's (interpretation
     * is CPU time, too-small I/O operations are I/O time, a user's refinement of lock contention is lock waiting).
     */
    private static final Map<String, String> GRAPHS = Map.of("cpu_bound", "cpu", "sync_wait", "sync", "io_wait", "io",
        "object_creation_overhead", "alloc", "memory_pressure", "alloc", "jit_compile_time", "jit",
        "class_load_time", "load");
    /** What a graph's samples are, as the start of {@link #text}. */
    private static final Map<String, String> SAMPLES = Map.of("cpu", "CPU samples", "sync", "lock-wait samples",
        "io", "I/O-wait samples", "alloc", "allocation samples", "jit", "JIT compilations",
        "load", "class definitions");

    /** The flame graph of hypothesis {@code h} at {@code place}, or null when no graph samples what it counts. */
    static Flame of(Hypothesis h, HypothesisCatalog catalog, Focus place) {
      String graph = null;
      Set<String> seen = new HashSet<>();
      for (Hypothesis at = h; at != null && graph == null && seen.add(at.id());
          at = at.parent() == null ? null : catalog.get(at.parent())) {
        graph = GRAPHS.get(at.id());
      }
      if (graph == null) {
        return null;
      }
      ResourcePath code = place.get(Hierarchy.CODE);
      // the stacks hold methods, not a method's forms (interpreted, compiled): a form's method it is
      ResourcePath through = code.isRoot() ? null
          : code.depth() > 3 ? ResourcePath.of(Hierarchy.CODE, code.segments().subList(0, 3)) : code;
      String words = SAMPLES.get(graph) + (through == null ? "" : " through " + ReadableNames.code(through));
      return new Flame(graph, through, words);
    }

    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("graph", graph);
      m.put("through", through == null ? null : through.toString());
      m.put("text", text);
      return m;
    }
  }

  /** A stack frame's {@code /Code} path (without a descriptor) as {@code com.acme.Cache.get}. */
  private static String frame(String path) {
    try {
      String code = ReadableNames.code(ResourcePath.parse(path));
      return code.endsWith("(...)") ? code.substring(0, code.length() - 5) : code;
    } catch (IllegalArgumentException e) {
      return path;
    }
  }

  /**
   * What a finding costs the program: {@code secondsPerSecond} of the threads involved (NaN when the graph
   * holds no time for it), and in words.
   */
  public record Impact(double secondsPerSecond, String text) {
    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("secondsPerSecond", finite(secondsPerSecond));
      m.put("text", text);
      return m;
    }
  }

  /**
   * The figures that made a finding true: its metric, the value against the bar it had to pass (the threshold
   * moved by the hysteresis), how long it held over how many intervals, whether it was clear early.
   */
  public record Evidence(String metric, String comparison, double value, double threshold, double bar, double heldSeconds,
      int intervals, boolean clear, String unit, String text) {
    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("metric", metric);
      m.put("comparison", comparison);
      m.put("value", finite(value));
      m.put("threshold", finite(threshold));
      m.put("bar", finite(bar));
      m.put("heldSeconds", finite(heldSeconds));
      m.put("intervals", intervals);
      m.put("clear", clear);
      m.put("unit", unit);
      m.put("text", text);
      return m;
    }
  }

  /**
   * The findings of a saved search; a lock-contention finding carries the holders seen as the search ended
   * ({@link #withHolders}).
   */
  public static List<Finding> of(SavedSearch search) {
    return withHolders(of(search.graph(), search.hypotheses(), search.startedAtMillis()), search.holders());
  }

  /**
   * {@code found} with each lock-contention finding carrying the holders {@code seen} of the locks its threads waited
   * for (all of them when it names no thread), the most seen first, at most three.
   */
  public static List<Finding> withHolders(List<Finding> found, List<SavedSearch.LockHolder> seen) {
    if (seen.isEmpty()) {
      return found;
    }
    List<Finding> out = new ArrayList<>(found.size());
    for (Finding f : found) {
      if (!f.hypothesis().equals(LOCK_CONTENTION)) {
        out.add(f);
        continue;
      }
      List<Holder> holders = seen.stream()
          .filter(h -> f.threads().isEmpty() || f.threads().stream().anyMatch(t -> waitedFor(h, t)))
          .sorted(Comparator.comparingInt(SavedSearch.LockHolder::seen).reversed()).limit(3).map(Holder::of).toList();
      out.add(f.withHolders(holders));
    }
    return out;
  }

  /** Whether {@code thread} of a finding ({@code host}, or {@code pool http-exec}) was seen waiting for {@code h}'s lock. */
  private static boolean waitedFor(SavedSearch.LockHolder h, String thread) {
    return h.waiters().contains(thread)
        || thread.startsWith(POOL) && h.waiterPools().contains(thread.substring(POOL.length()));
  }

  /** The findings in {@code graph} as it is now, ranked by impact; {@code startedAtMillis} is when its search began. */
  public static List<Finding> of(SearchHistoryGraph graph, HypothesisCatalog catalog, long startedAtMillis) {
    return new Builder(graph, catalog, startedAtMillis).build();
  }

  /** The findings as text, one block each; says so when there is none. */
  public static String text(List<Finding> findings) {
    if (findings.isEmpty()) {
      return "no finding: no hypothesis tested true\n";
    }
    StringBuilder sb = new StringBuilder();
    for (Finding f : findings) {
      sb.append(f.text());
    }
    return sb.toString();
  }

  /** One pass over a graph snapshot. */
  private static final class Builder {
    private final HypothesisCatalog catalog;
    private final long startedAtMillis;
    private final Map<Integer, ShgNode> nodes = new LinkedHashMap<>();
    private final Map<Integer, List<Integer>> children = new HashMap<>();
    private final Map<Integer, List<Integer>> parents = new HashMap<>();

    Builder(SearchHistoryGraph graph, HypothesisCatalog catalog, long startedAtMillis) {
      this.catalog = catalog;
      this.startedAtMillis = startedAtMillis;
      for (ShgNode n : graph.nodes()) {
        nodes.put(n.id(), n);
      }
      for (ShgEdge e : graph.edges()) {
        children.computeIfAbsent(e.from(), k -> new ArrayList<>()).add(e.to());
        parents.computeIfAbsent(e.to(), k -> new ArrayList<>()).add(e.from());
      }
    }

    List<Finding> build() {
      List<ShgNode> leaves = new ArrayList<>();
      Map<Integer, List<ShgNode>> recursion = new HashMap<>();
      for (List<ShgNode> last : lastTrue()) {
        ShgNode entry = last.get(0);
        leaves.add(entry);
        if (last.size() > 1) {
          recursion.put(entry.id(), last.subList(1, last.size()));
        }
      }
      Map<Integer, Integer> foldedInto = new HashMap<>();
      for (ShgNode a : leaves) {
        ShgNode into = null;
        for (ShgNode b : leaves) {
          if (b != a && restates(a, b) && (into == null || b.value() > into.value())) {
            into = b;
          }
        }
        if (into != null) {
          foldedInto.put(a.id(), into.id());
        }
      }
      Map<String, List<ShgNode>> groups = new LinkedHashMap<>();
      Map<String, List<ShgNode>> folded = new HashMap<>();
      for (ShgNode n : leaves) {
        int target = n.id();
        Set<Integer> seen = new HashSet<>();
        while (foldedInto.containsKey(target) && seen.add(target)) {
          target = foldedInto.get(target);
        }
        ShgNode t = nodes.get(target);
        String key = t.hypothesis() + "::" + place(t.focus());
        if (target == n.id()) {
          groups.computeIfAbsent(key, k -> new ArrayList<>()).add(n);
        } else {
          folded.computeIfAbsent(key, k -> new ArrayList<>()).add(n);
        }
        folded.computeIfAbsent(key, k -> new ArrayList<>()).addAll(recursion.getOrDefault(n.id(), List.of()));
      }
      List<Finding> list = new ArrayList<>();
      groups.forEach((key, members) -> list.add(finding(members, folded.getOrDefault(key, List.of()))));
      list.sort(Comparator.comparingDouble((Finding f) -> Double.isNaN(f.impact().secondsPerSecond()) ? -1 : f.impact().secondsPerSecond())
          .reversed().thenComparing(f -> f.nodeIds().get(0)));
      List<Finding> ranked = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        ranked.add(list.get(i).ranked(i + 1));
      }
      return ranked;
    }

    /**
     * Where the true nodes end: each group of nodes that hold and reach one another along the graph's edges (one
     * node, or several where the search walked a recursion's callees back to a method it had tested: a serializer
     * calling itself through three others) from which no edge leads to another node that holds, its members in
     * the order the search made them, the recursion's entry first. Without the groups, a walk that came back to its
     * own start left no true node without a true child, and a search with fifty true nodes had no finding.
     */
    private List<List<ShgNode>> lastTrue() {
      Map<Integer, List<Integer>> edges = new LinkedHashMap<>();
      for (ShgNode n : nodes.values()) {
        if (holds(n)) {
          List<Integer> trueChildren = children.getOrDefault(n.id(), List.of()).stream()
              .filter(c -> holds(nodes.get(c))).toList();
          edges.put(n.id(), trueChildren);
        }
      }
      List<List<ShgNode>> last = new ArrayList<>();
      for (List<Integer> group : StronglyConnected.of(edges)) {
        Set<Integer> in = new HashSet<>(group);
        if (group.stream().allMatch(id -> in.containsAll(edges.get(id)))) {
          last.add(group.stream().sorted().map(nodes::get).toList());
        }
      }
      last.sort(Comparator.comparingInt(g -> g.get(0).id()));
      return last;
    }

    /** True and decided by a value that passes the bar of becoming true. */
    private boolean holds(ShgNode n) {
      if (n == null || n.state() != NodeState.TRUE || Double.isNaN(n.threshold())) {
        return false;
      }
      Hypothesis h = catalog.get(n.hypothesis());
      if (h == null || h.isVirtual()) {
        return false;
      }
      return h.comparison().passes(decidingValue(n), bar(n, h), 1);
    }

    private static double decidingValue(ShgNode n) {
      return n.decision() != null ? n.decision().value() : n.value();
    }

    private static double bar(ShgNode n, Hypothesis h) {
      return n.decision() != null ? n.decision().bar() : h.becomingTrueBar();
    }

    /**
     * Whether leaf {@code a} only restates leaf {@code b}. Of one hypothesis: {@code b}'s place (its focus but the
     * thread) lies strictly within {@code a}'s, on a thread or pool that is {@code a}'s, within it or around it
     * (CPU-bound on a thread, and at a method, on that thread or on all). Leaves at the same place are one
     * finding already. Also of one hypothesis counted with the code anywhere on the stack: {@code a} at a package
     * or class of the platform's, {@code b} in the program's code (a package, a class or a method), the rest of the
     * place as above (CPU-bound in {@code java.lang}, whose {@code Thread.run} is under every thread's work, and at
     * the program's hot method, or in its package where the search got no further). And of one hypothesis counted
     * so: {@code a} at a package, {@code b} in a package below it by name with half of {@code a}'s time or more, the
     * rest of the place as above ({@code diag} and {@code diag.dispatch} both at 1.1 cores: the first calls the
     * second). Of a hypothesis and one that refines it: {@code b} at {@code a}'s focus or within it, with half of
     * {@code a}'s time or more.
     */
    private boolean restates(ShgNode a, ShgNode b) {
      if (a.hypothesis().equals(b.hypothesis())) {
        Focus pa = place(a.focus());
        Focus pb = place(b.focus());
        ResourcePath ta = a.focus().get(Hierarchy.THREADS);
        ResourcePath tb = b.focus().get(Hierarchy.THREADS);
        boolean threads = ta.contains(tb) || tb.contains(ta);
        ResourcePath ca = pa.get(Hierarchy.CODE);
        ResourcePath cb = pb.get(Hierarchy.CODE);
        // counted with the code anywhere on the stack, and the rest of the place (not the code) within a's
        boolean inclusiveAround = catalog.get(a.hypothesis()).valueNeed().mode() == ConstraintMode.INCLUSIVE
            && contains(pa.with(Hierarchy.CODE.root()), pb.with(Hierarchy.CODE.root()));
        boolean platformAround = inclusiveAround
            && CodePaths.inPlatform(ca) && !ca.isMethod() && !cb.isRoot() && !CodePaths.inPlatform(cb);
        boolean subPackage = inclusiveAround
            && ca.depth() == 1 && cb.depth() >= 1 && cb.segments().get(0).startsWith(ca.segments().get(0) + ".")
            && b.value() >= RESTATES * a.value();
        return threads && (platformAround || subPackage || !pa.equals(pb) && contains(pa, pb));
      }
      Hypothesis ha = catalog.get(a.hypothesis());
      Hypothesis hb = catalog.get(b.hypothesis());
      return contains(a.focus(), b.focus()) && catalog.refines(hb, ha) && isTime(ha) && isTime(hb)
          && b.value() >= RESTATES * a.value();
    }

    private static boolean contains(Focus outer, Focus inner) {
      for (Hierarchy h : Hierarchy.values()) {
        if (!outer.get(h).contains(inner.get(h))) {
          return false;
        }
      }
      return true;
    }

    private static Focus place(Focus f) {
      return f.with(Hierarchy.THREADS.root());
    }

    /** The member with the strongest evidence: the highest value, or the lowest for a hypothesis true below its threshold. */
    private static ShgNode lead(Hypothesis h, List<ShgNode> members) {
      Comparator<ShgNode> byValue = Comparator.comparingDouble(ShgNode::value);
      return members.stream().max(h.comparison() == Comparison.ABOVE ? byValue : byValue.reversed()).orElseThrow();
    }

    private Finding finding(List<ShgNode> members, List<ShgNode> folded) {
      Hypothesis h = catalog.get(members.get(0).hypothesis());
      ShgNode lead = lead(h, members);
      List<ResourcePath> threadPaths = new ArrayList<>();
      boolean allThreads = false;
      for (ShgNode m : members) {
        ResourcePath t = m.focus().get(Hierarchy.THREADS);
        allThreads |= t.isRoot();
        threadPaths.add(t);
      }
      List<ResourcePath> distinct = allThreads ? List.of() : outermost(threadPaths);
      List<String> threads = distinct.stream().map(Builder::threadName).toList();
      Focus focus = members.size() == 1 ? lead.focus() : place(lead.focus());
      double seconds = seconds(h, members, distinct);
      List<Integer> ids = new ArrayList<>();
      ids.add(lead.id());
      members.stream().filter(m -> m != lead).forEach(m -> ids.add(m.id()));
      folded.forEach(m -> ids.add(m.id()));
      double found = lead.concludedAtMillis() > 0 && startedAtMillis > 0 ? (lead.concludedAtMillis() - startedAtMillis) / 1000.0 : Double.NaN;
      return new Finding(0, h.id(), h.displayName(), focus, where(place(lead.focus()), !threads.isEmpty()), threads, programCode(h, lead), impact(h, lead, seconds, distinct),
          evidence(h, lead), found, lead.observedCost(), NextSteps.of(h, place(lead.focus())), List.copyOf(ids),
          List.of(), Flame.of(h, catalog, place(lead.focus())));
    }

    /**
     * The program's own methods (not the platform's) that hold the same cause at the same place but for the code,
     * highest value first and a lambda's generated methods last, at most five, when the lead's code is the
     * platform's and its metric counts the code anywhere on the stack: the lock is taken in {@code Unsafe.park},
     * but the program's {@code Cache.get} asked.
     */
    private List<String> programCode(Hypothesis h, ShgNode lead) {
      ResourcePath code = lead.focus().get(Hierarchy.CODE);
      if (!CodePaths.inPlatform(code) || h.valueNeed().mode() != ConstraintMode.INCLUSIVE) {
        return List.of();
      }
      Focus rest = place(lead.focus()).with(Hierarchy.CODE.root());
      return nodes.values().stream()
          .filter(n -> n.hypothesis().equals(lead.hypothesis()) && holds(n))
          .filter(n -> n.focus().get(Hierarchy.CODE).isMethod() && !CodePaths.inPlatform(n.focus().get(Hierarchy.CODE)))
          .filter(n -> place(n.focus()).with(Hierarchy.CODE.root()).equals(rest))
          .sorted(Comparator.comparing((ShgNode n) -> generated(n.focus().get(Hierarchy.CODE)))
              .thenComparing(Comparator.comparingDouble(ShgNode::value).reversed()))
          .map(n -> ReadableNames.code(n.focus().get(Hierarchy.CODE)))
          .distinct().limit(5).toList();
    }

    /** Whether a method is one the compiler or the VM made for a lambda ({@code lambda$main$0}, {@code Task$$Lambda.run}). */
    private static boolean generated(ResourcePath method) {
      return method.toString().contains("$$Lambda") || method.name().startsWith("lambda$");
    }

    /** The paths of {@code paths} not inside another of them, so that no thread is counted twice. */
    private static List<ResourcePath> outermost(List<ResourcePath> paths) {
      List<ResourcePath> out = new ArrayList<>();
      for (ResourcePath p : paths) {
        boolean inside = paths.stream().anyMatch(q -> !q.equals(p) && q.contains(p));
        if (!inside && !out.contains(p)) {
          out.add(p);
        }
      }
      return out;
    }

    /**
     * The finding's time, in seconds per second: its value for a time hypothesis (summed over its threads,
     * each counted once); otherwise from the nearest time hypothesis above its lead node.
     */
    private double seconds(Hypothesis h, List<ShgNode> members, List<ResourcePath> threads) {
      if (isTime(h)) {
        if (threads.isEmpty()) {
          return members.stream().mapToDouble(ShgNode::value).max().orElse(Double.NaN);
        }
        double sum = 0;
        for (ResourcePath t : threads) {
          sum += members.stream().filter(m -> m.focus().get(Hierarchy.THREADS).equals(t)).mapToDouble(ShgNode::value).max().orElse(0);
        }
        return sum;
      }
      ShgNode lead = lead(h, members);
      ShgNode timed = nearestTimed(lead);
      if (timed == null) {
        return Double.NaN;
      }
      boolean share = h.unit().startsWith("fraction") && lead.value() >= 0 && lead.value() <= 1;
      return share ? timed.value() * lead.value() : timed.value();
    }

    /** The nearest node above {@code n} (breadth first through its parents) whose hypothesis is measured in time. */
    private ShgNode nearestTimed(ShgNode n) {
      List<Integer> frontier = new ArrayList<>(parents.getOrDefault(n.id(), List.of()));
      Set<Integer> seen = new HashSet<>(frontier);
      while (!frontier.isEmpty()) {
        List<Integer> next = new ArrayList<>();
        for (int id : frontier) {
          ShgNode p = nodes.get(id);
          Hypothesis h = catalog.get(p.hypothesis());
          if (h != null && isTime(h) && !Double.isNaN(p.value())) {
            return p;
          }
          for (int up : parents.getOrDefault(id, List.of())) {
            if (seen.add(up)) {
              next.add(up);
            }
          }
        }
        frontier = next;
      }
      return null;
    }

    private static boolean isTime(Hypothesis h) {
      return h != null && !h.isVirtual() && TIME.equals(h.unit());
    }

    private static String threadName(ResourcePath t) {
      List<String> s = t.segments();
      return s.size() >= 2 ? s.get(s.size() - 1) : POOL + s.get(0);
    }

    private static String where(Focus place, boolean ofThreads) {
      if (place.constrained().isEmpty()) {
        return ofThreads ? "the whole program: the search did not narrow it down to code" : "the whole program";
      }
      List<String> parts = new ArrayList<>();
      place.constrained().forEach((h, p) -> parts.add(ReadableNames.of(p)));
      return String.join(", ", parts);
    }

    private Impact impact(Hypothesis h, ShgNode lead, double seconds, List<ResourcePath> threads) {
      if (Double.isNaN(seconds)) {
        return new Impact(seconds, quantity(h, lead.value()) + " (no time measured above it)");
      }
      String doing = Activities.of(h);
      boolean single = !threads.isEmpty() && threads.stream().allMatch(t -> t.depth() >= 2);
      String text;
      if (h.id().equals("memory_pressure") && threads.isEmpty()) {
        text = "GC pauses stop the program " + percent(seconds) + " of the time";
      } else if (!isTime(h)) {
        text = quantity(h, lead.value()) + "; " + perSecond(seconds) + " " + doing;
      } else if (single && threads.size() == 1) {
        text = "thread " + threadName(threads.get(0)) + " spends " + share(seconds) + " of its time " + doing;
      } else if (single) {
        text = String.format(Locale.ROOT, "%d threads spend %s of their time %s on average (%s in all)", threads.size(),
            share(seconds / threads.size()), doing, perSecond(seconds));
      } else if (!threads.isEmpty()) {
        text = perSecond(seconds) + " " + doing + ", in all";
      } else if (h.id().equals("cpu_bound")) {
        text = String.format(Locale.ROOT, "%s of CPU (%.2f cores)", perSecond(seconds), seconds);
      } else {
        text = perSecond(seconds) + " " + doing + ", summed over threads";
      }
      return new Impact(seconds, text);
    }

    /** A value in its hypothesis's unit: a share as a percentage, anything else with its unit. */
    private static String quantity(Hypothesis h, double value) {
      if (h.unit().startsWith("fraction of ") && value >= 0 && value <= 1) {
        return percent(value) + " of " + h.unit().substring("fraction of ".length());
      }
      return Numbers.plain(value) + " " + h.unit();
    }

    /** A share of one thread's time; a measured share past all of it (sampling shares out a little more) reads as all. */
    private static String share(double s) {
      return s >= 0.995 ? "all" : percent(s);
    }

    private static Evidence evidence(Hypothesis h, ShgNode n) {
      MetricNeed per = h.perNeed();
      String metric = h.valueNeed().requestAt(n.focus()).metric() + (per == null ? ""
          : per.scope() == MetricNeed.Scope.PROCESS ? " / the program's " + per.metric() : " / " + per.metric());
      String sign = h.comparison() == Comparison.ABOVE ? ">" : "<";
      ShgNode.Decision d = n.decision();
      double value = decidingValue(n);
      double bar = bar(n, h);
      String hysteresis = h.hysteresis() == 0 ? ""
          : String.format(Locale.ROOT, " %s %s%% hysteresis", h.comparison() == Comparison.ABOVE ? "+" : "-",
              Numbers.plain(h.hysteresis() * 100));
      String against = String.format(Locale.ROOT, "%s %s %s %s %s (threshold %s%s)", metric, Numbers.plain(value),
          unitWords(h), sign, Numbers.plain(bar), Numbers.plain(n.threshold()), hysteresis);
      if (d == null) {
        return new Evidence(metric, sign, value, n.threshold(), bar, Double.NaN, 0, false, h.unit(),
            against + (n.reason() == null ? "" : "; " + n.reason()));
      }
      String held = String.format(Locale.ROOT, ", held %.1f s over %d interval%s", d.heldSeconds(), d.intervals(), d.intervals() == 1 ? "" : "s");
      String sure = d.clear() ? ", clear of the bar early (by several standard errors)" : "";
      return new Evidence(metric, sign, value, n.threshold(), bar, d.heldSeconds(), d.intervals(), d.clear(), h.unit(), against + held + sure);
    }
  }

  /** What the threads do, in the time a hypothesis counts. */
  private static final class Activities {
    static String of(Hypothesis h) {
      return switch (h.id()) {
        case "cpu_bound" -> "on the CPU";
        case "interpreted_time" -> "running interpreted code";
        case "method_call_overhead" -> "making calls that were not inlined";
        case "object_creation_overhead" -> "creating objects and in the GC pauses they cause";
        case "jit_compile_time" -> "JIT-compiling this code (compiler threads)";
        case "class_load_time" -> "loading classes";
        case "sync_wait" -> "blocked waiting for a lock";
        case "io_wait", "small_io_ops" -> "blocked in file and socket I/O";
        case "memory_pressure" -> "stopped by GC pauses";
        case "allocation_share" -> "of GC pauses charged to these allocations";
        default -> "in " + h.displayName();
      };
    }
  }

  /** What to look at or try next, for each built-in hypothesis. */
  static final class NextSteps {
    static String of(Hypothesis h, Focus place) {
      ResourcePath code = place.get(Hierarchy.CODE);
      String at = code.isRoot() ? "" : " in " + ReadableNames.of(code);
      return switch (h.id()) {
        case "cpu_bound" -> code.isMethod()
            ? "look at the work " + ReadableNames.of(code) + " does per call and how often it is called (metric calls at this focus); "
                + "make the loop cheaper or call it less"
            : "search further with a longer time limit to find the method" + at + ", or look at its execution samples";
        case "interpreted_time" -> "this code is not JIT-compiled: a method over 8000 bytes of bytecode is never compiled "
            + "(split it, or -XX:-DontCompileHugeMethods); repeated deoptimisation shows in -Xlog:jit+compilation=debug";
        case "method_call_overhead" -> "calls" + at + " are not inlined: make the call site see fewer receiver types, "
            + "or the callee small enough to inline (-XX:+PrintInlining shows why)";
        case "object_creation_overhead", "allocation_share" -> "allocate less" + at + ": reuse objects or buffers, use primitives "
            + "instead of boxed values, size collections up front";
        case "memory_pressure" -> "find who allocates (allocation share below this node); a larger young generation "
            + "makes collections rarer";
        case "jit_compile_time" -> "compilation is warm-up cost: it ends as the code settles; a class-data archive or AOT "
            + "cache (JDK 24: -XX:AOTCache) starts compiled code sooner";
        case "class_load_time" -> (code.isRoot() ? "classes are defined while the program runs"
            : "classes are defined while the program runs, charged to " + ReadableNames.of(code)
                + " (the class loader that defines them, or the classes themselves where the JDK's loaders do)")
            + ": cache what is generated or loaded (proxies, lambdas from reflection, a class loader made per request)";
        case "sync_wait" -> "hold the lock for less time or split it (per-key locks, a concurrent collection); "
            + "look for slow work done while holding it (I/O, sleeps) in the code that takes it";
        case "io_wait" -> "batch or buffer the reads and writes, move them off the hot path, or check the "
            + "file system's or the peer's latency";
        case "small_io_ops" -> "read and write in larger blocks: wrap the stream in a buffered one, or batch the messages";
        default -> "measure the hypothesis's metric at this focus with bottlenose measure";
      };
    }
  }

  /** A percentage in words for a share of time: {@code 75%}, {@code 0.4%}. */
  static String percent(double share) {
    double p = share * 100;
    return (p >= 10 ? String.format(Locale.ROOT, "%.0f", p) : p >= 1 ? String.format(Locale.ROOT, "%.1f", p)
        : String.format(Locale.ROOT, "%.2f", p)) + "%";
  }

  /**
   * What measuring a finding's node cost, in words: {@code measuring it cost 0.40% of the target's CPU} (its last
   * observed share, {@link Finding#measuringCost()}); under 0.01% reads as such.
   */
  public static String costText(double share) {
    return "measuring it cost " + (share * 100 < 0.005 ? "under 0.01%" : percent(share)) + " of the target's CPU";
  }

  /**
   * A hypothesis's unit as a value is written with it, in the evidence, the search tree and the pages: {@code s per
   * second} for time (seconds of the activity per second of wall time, summed over the threads), {@code of bytes
   * allocated} for {@code fraction of bytes allocated}, any other unit as it is; nothing for a hypothesis without
   * one (a virtual one) or not known ({@code h} null).
   */
  public static String unitWords(Hypothesis h) {
    return h == null ? "" : unitWords(h.unit());
  }

  private static String unitWords(String hypothesisUnit) {
    if (TIME.equals(hypothesisUnit)) {
      return "s per second";
    }
    return hypothesisUnit.startsWith("fraction of ") ? hypothesisUnit.substring("fraction ".length()) : hypothesisUnit;
  }

  /**
   * A metric's unit, as the metric language writes it, in the words a value is written with: {@code s per second}
   * for {@code fraction} (a time metric reports seconds of the activity per second of wall time, summed over the
   * threads), {@code per second} for {@code count/s}, {@code bytes per second}, {@code bytes each} for
   * {@code bytes/count}; {@code ratio} and any other unit as it is.
   */
  public static String metricUnitWords(String unit) {
    if (unit == null || unit.isEmpty()) {
      return "";
    }
    if (unit.equals("fraction")) {
      return unitWords(TIME);
    }
    int slash = unit.indexOf('/');
    if (slash < 0) {
      return unit;
    }
    String top = unit.substring(0, slash).equals("count") ? "" : unit.substring(0, slash) + " ";
    return switch (unit.substring(slash + 1)) {
      case "s", "seconds" -> top + "per second";
      case "count" -> top + "each";
      default -> unit;
    };
  }

  /**
   * A node's value against its threshold, as the search tree and the progress lines write it: {@code 1.792 s per
   * second (threshold 0.3)}, in {@link #unitWords} of {@code h}; the bare numbers when it has none, no threshold when
   * there is none (NaN).
   */
  public static String valueText(Hypothesis h, double value, double threshold) {
    String unit = unitWords(h);
    return Numbers.plain(value) + (unit.isEmpty() ? "" : " " + unit)
        + (Double.isNaN(threshold) ? "" : " (threshold " + Numbers.plain(threshold) + ")");
  }

  /** Seconds per second in words: {@code 440 ms per second}, {@code 2.68 s per second}. */
  static String perSecond(double seconds) {
    return seconds < 1 ? String.format(Locale.ROOT, "%.0f ms per second", seconds * 1000)
        : String.format(Locale.ROOT, "%.2f s per second", seconds);
  }

  private static Object finite(double d) {
    return Double.isNaN(d) || Double.isInfinite(d) ? null : d;
  }
}
