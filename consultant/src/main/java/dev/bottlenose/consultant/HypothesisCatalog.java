package dev.bottlenose.consultant;

import static dev.bottlenose.model.Hierarchy.CODE;
import static dev.bottlenose.model.Hierarchy.IO;
import static dev.bottlenose.model.Hierarchy.MACHINE;
import static dev.bottlenose.model.Hierarchy.MEMORY;
import static dev.bottlenose.model.Hierarchy.PROCESS;
import static dev.bottlenose.model.Hierarchy.SYNC_OBJECTS;
import static dev.bottlenose.model.Hierarchy.THREADS;

import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Hierarchy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The hypotheses of a search: the built-in tree (Paradyn's three top-level hypotheses, GC / memory
 * pressure, and the thesis's VM costs below CPU-bound) plus any declared in the settings as {@code
 * hypothesis.<id>.*}, with thresholds and hysteresis taken from the settings. Checked at build: unique
 * ids, known parents, no cycles.
 */
public final class HypothesisCatalog {
  public static final String TOP = "top";
  /**
   * The hypotheses whose value is what the focus's own frames do while they run (CPU time,
   * allocations), so code the program did not run while it was sampled cannot make them true: they are
   * not refined into it. Not method-call overhead: a tiny method called through a megamorphic call site
   * is seldom on top of a sample, the time of its calls shows in its caller's frame. Nor class loading: a thread
   * that defines classes spends most of its time in the VM, where execution samples do not see it (on a plugin host
   * loading 17,000 classes a second, 17 samples of that thread in 5 s); the classes defined tell instead ({@link
   * ResourceChild#loads}).
   */
  private static final Set<String> ON_CPU = Set.of("cpu_bound", "object_creation_overhead", "interpreted_time",
      "allocation_share");
  private static final String FRACTION = "fraction of time";

  private final Map<String, Hypothesis> byId;

  private HypothesisCatalog(Map<String, Hypothesis> byId) {
    this.byId = byId;
  }

  /** The built-in hypotheses, thresholds as the declared defaults. */
  public static List<Hypothesis> builtIn() {
    ConstraintMode in = ConstraintMode.INCLUSIVE;
    ConstraintMode ex = ConstraintMode.EXCLUSIVE;
    return List.of(
        Hypothesis.virtual(TOP, "Top-level hypothesis"),
        timeShare("cpu_bound", "CPU-bound", TOP, "cpu_inclusive", in, 0.30, List.of(CODE, THREADS, PROCESS, MACHINE)),
        new Hypothesis("sync_wait", "Lock contention", TOP,
            List.of(MetricNeed.of("sync_wait_sampled", in).orAt(CODE, "sync_wait")),
            Comparison.ABOVE, 0.20, FRACTION, 0.05, List.of(SYNC_OBJECTS, CODE, THREADS, PROCESS)),
        new Hypothesis("io_wait", "Excessive I/O blocking", TOP, List.of(MetricNeed.of("io_time", in).orAt(IO, "io_wait")),
            Comparison.ABOVE, 0.20, FRACTION, 0.05, List.of(CODE, THREADS, IO, PROCESS, MACHINE)),
        new Hypothesis("small_io_ops", "Too many small I/O operations", "io_wait",
            List.of(MetricNeed.of("io_bytes"), MetricNeed.per("io_ops", MetricNeed.Scope.FOCUS)),
            Comparison.BELOW, 4096, "bytes per operation", 0.05, List.of(IO, CODE)),
        timeShare("memory_pressure", "GC / memory pressure", TOP, "gc_time", in, 0.10, List.of(PROCESS, MACHINE)),
        new Hypothesis("allocation_share", "Allocation concentrated here", "memory_pressure",
            List.of(MetricNeed.of("alloc_sampled_bytes", ex), MetricNeed.per("alloc_sampled_bytes", MetricNeed.Scope.PROCESS)),
            Comparison.ABOVE, 0.20, "fraction of bytes allocated", 0.05, List.of(MEMORY, CODE, THREADS)),
        timeShare("method_call_overhead", "Method-call overhead", "cpu_bound", "method_call_overhead", in, 0.10, List.of(CODE)),
        timeShare("object_creation_overhead", "Object-creation overhead", "cpu_bound", "object_creation_sampled", in, 0.10, List.of(CODE, MEMORY)),
        timeShare("interpreted_time", "Interpretation", "cpu_bound", "interpreted_time", ex, 0.10, List.of(CODE, THREADS)),
        timeShare("jit_compile_time", "JIT compilation", "cpu_bound", "jit_compile_time", ex, 0.05, List.of(CODE)),
        timeShare("class_load_time", "Class loading", "cpu_bound", "class_load_by_loader", ex, 0.05, List.of(CODE, THREADS)));
  }

  private static Hypothesis timeShare(String id, String name, String parent, String metric, ConstraintMode mode, double threshold, List<Hierarchy> along) {
    return new Hypothesis(id, name, parent, List.of(MetricNeed.of(metric, mode)), Comparison.ABOVE, threshold, FRACTION, 0.05, along);
  }

  /** The built-ins plus the hypotheses declared in {@code settings}, thresholds from {@code settings}. */
  public static HypothesisCatalog of(Settings settings) {
    Map<String, Hypothesis> m = new LinkedHashMap<>();
    for (Hypothesis h : builtIn()) {
      m.put(h.id(), h);
    }
    for (Hypothesis h : declared(settings)) {
      if (m.putIfAbsent(h.id(), h) != null) {
        throw new IllegalArgumentException("hypothesis " + h.id() + " is declared twice");
      }
    }
    double hysteresis = settings.number("hysteresis", 0.05);
    m.replaceAll((id, h) -> h.isVirtual() ? h : h.withThreshold(
        settings.number(id + ".threshold", h.threshold()), settings.number(id + ".hysteresis", hysteresis)));
    check(m);
    skip(m, settings.text("search.skip"));
    return new HypothesisCatalog(m);
  }

  /**
   * The keys of {@code settings} that name nothing: not a setting of {@link Settings#defaults()}, not part of a
   * hypothesis declaration ({@code hypothesis.<id>.*}), and not the threshold or hysteresis of a hypothesis,
   * built-in or declared in the same settings ({@code <id>.threshold}, {@code <id>.hysteresis}).
   */
  public static List<String> unknownKeys(Settings settings) {
    java.util.Set<String> ids = new java.util.HashSet<>();
    builtIn().forEach(h -> ids.add(h.id()));
    declared(settings).forEach(h -> ids.add(h.id()));
    Map<String, String> known = Settings.defaults().asMap();
    List<String> unknown = new ArrayList<>();
    for (String key : settings.asMap().keySet()) {
      int dot = key.lastIndexOf('.');
      boolean ofHypothesis = dot > 0 && (key.endsWith(".threshold") || key.endsWith(".hysteresis"))
          && ids.contains(key.substring(0, dot));
      if (!known.containsKey(key) && !key.startsWith("hypothesis.") && !ofHypothesis) {
        unknown.add(key);
      }
    }
    return unknown;
  }

  /** Leaves out the hypotheses named in {@code ids} (comma-separated) and everything below them. */
  private static void skip(Map<String, Hypothesis> m, String ids) {
    if (ids == null || ids.isBlank()) {
      return;
    }
    for (String id : ids.split(",")) {
      String name = id.trim();
      if (name.equals(TOP)) {
        throw new IllegalArgumentException("search.skip: the top-level hypothesis cannot be skipped");
      }
      if (!name.isEmpty() && !m.containsKey(name)) {
        throw new IllegalArgumentException("search.skip: unknown hypothesis '" + name + "'; known: "
            + String.join(", ", m.keySet().stream().filter(k -> !k.equals(TOP)).toList()));
      }
      m.remove(name);
    }
    boolean removed = true;
    while (removed) {
      removed = m.values().removeIf(h -> h.parent() != null && !m.containsKey(h.parent()));
    }
  }

  private static List<Hypothesis> declared(Settings settings) {
    List<Hypothesis> list = new ArrayList<>();
    for (String key : settings.asMap().keySet()) {
      if (key.startsWith("hypothesis.") && key.endsWith(".metric")) {
        list.add(declare(key.substring("hypothesis.".length(), key.length() - ".metric".length()), settings));
      }
    }
    return list;
  }

  private static Hypothesis declare(String id, Settings s) {
    String p = "hypothesis." + id + ".";
    List<MetricNeed> needs = new ArrayList<>();
    needs.add(new MetricNeed(s.text(p + "metric"), mode(s.text(p + "mode"), p + "mode"), MetricNeed.Role.VALUE, MetricNeed.Scope.FOCUS));
    if (s.text(p + "per") != null) {
      MetricNeed.Scope scope = "process".equals(s.text(p + "per_scope")) ? MetricNeed.Scope.PROCESS : MetricNeed.Scope.FOCUS;
      needs.add(MetricNeed.per(s.text(p + "per"), scope));
    }
    String compare = s.text(p + "compare") == null ? "above" : s.text(p + "compare");
    if (!compare.equals("above") && !compare.equals("below")) {
      throw new IllegalArgumentException(p + "compare must be 'above' or 'below', is '" + compare + "'");
    }
    String name = s.text(p + "name") == null ? id : s.text(p + "name");
    String unit = s.text(p + "unit") == null ? FRACTION : s.text(p + "unit");
    String parent = s.text(p + "parent") == null || s.text(p + "parent").isEmpty() ? null : s.text(p + "parent");
    Comparison c = Comparison.valueOf(compare.toUpperCase(Locale.ROOT));
    return new Hypothesis(id, name, parent, needs, c, s.number(id + ".threshold"), unit, 0.05, hierarchies(s.text(p + "refine"), p + "refine"));
  }

  private static ConstraintMode mode(String word, String key) {
    if (word == null) {
      return ConstraintMode.INCLUSIVE;
    }
    for (ConstraintMode m : ConstraintMode.values()) {
      if (m.word().equals(word)) {
        return m;
      }
    }
    throw new IllegalArgumentException(key + ": unknown constraint mode '" + word + "'; expected exclusive, inclusive or caller");
  }

  private static List<Hierarchy> hierarchies(String text, String key) {
    List<Hierarchy> list = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return list;
    }
    for (String name : text.split(",")) {
      Hierarchy h = Hierarchy.byRootName(name.trim().replaceFirst("^/", ""));
      if (h == null) {
        throw new IllegalArgumentException(key + ": unknown hierarchy '" + name.trim() + "'; expected Code, Threads, SyncObjects, Memory, IO, VM, Process or Machine");
      }
      list.add(h);
    }
    return list;
  }

  private static void check(Map<String, Hypothesis> m) {
    for (Hypothesis h : m.values()) {
      if (h.parent() != null && !m.containsKey(h.parent())) {
        throw new IllegalArgumentException("hypothesis " + h.id() + " names an unknown parent '" + h.parent() + "'");
      }
      String at = h.parent();
      for (int steps = 0; at != null; steps++) {
        if (steps > m.size()) {
          throw new IllegalArgumentException("hypothesis " + h.id() + " is its own ancestor (a cycle of parents)");
        }
        at = m.get(at).parent();
      }
    }
  }

  /**
   * True when what the daemons recorded of {@code child} shows that built-in hypothesis {@code h} cannot hold
   * there, so the search does not refine into it: code never sampled cannot hold a share of the CPU or of
   * the allocations ({@link #ON_CPU}); code no slow read or write, or no contended entry, wait or park, had on its
   * stack never blocked there; code the JIT did not compile took none of its time; code at which no class defined
   * was counted (neither a loader's class that defined one nor, for the JDK's loaders, a class defined) did not
   * load classes worth a threshold. What was not recorded ({@link ResourceChild#UNKNOWN}) rules out
   * nothing.
   */
  public boolean ruledOutBy(Hypothesis h, ResourceChild child) {
    return switch (h.id()) {
      case "io_wait" -> child.neverWaitedOnIo();
      case "sync_wait" -> child.neverWaitedOnSync();
      case "jit_compile_time" -> child.neverCompiled();
      case "class_load_time" -> child.neverLoaded();
      default -> ON_CPU.contains(h.id()) && child.unsampled();
    };
  }

  /**
   * True when built-in hypothesis {@code h} is one that what the daemons record can rule out of {@code child}
   * ({@link #ruledOutBy}), and they are recording it but have too few yet to tell ({@link ResourceChild#NOT_YET}):
   * a refinement made now would not be pruned.
   */
  public boolean notYetRecorded(Hypothesis h, ResourceChild child) {
    return switch (h.id()) {
      case "io_wait" -> child.ioWaits() == ResourceChild.NOT_YET;
      case "sync_wait" -> child.syncWaits() == ResourceChild.NOT_YET;
      case "jit_compile_time" -> child.compilations() == ResourceChild.NOT_YET;
      case "class_load_time" -> child.loads() == ResourceChild.NOT_YET;
      default -> ON_CPU.contains(h.id()) && child.samples() == ResourceChild.NOT_YET;
    };
  }

  /**
   * How many of the recorded events that {@code child} had a part in scale built-in hypothesis {@code h}'s value
   * there: execution samples for cpu_bound, slow reads and writes for io_wait, contended waits for sync_wait,
   * compilations for jit_compile_time, classes defined for class_load_time; {@link ResourceChild#UNKNOWN} for the other hypotheses, or when nothing
   * was recorded to tell.
   */
  public long events(Hypothesis h, ResourceChild child) {
    return switch (h.id()) {
      case "cpu_bound" -> child.samples();
      case "io_wait" -> child.ioWaits();
      case "sync_wait" -> child.syncWaits();
      case "jit_compile_time" -> child.compilations();
      case "class_load_time" -> child.loads();
      default -> ResourceChild.UNKNOWN;
    };
  }

  /**
   * Whether built-in hypothesis {@code h}'s value at a focus grows with the bytes its code allocates, and with
   * nothing else the focus's allocated types do not share ({@code object_creation_sampled}, {@code
   * alloc_sampled_bytes}): an allocated type holds at most its share of the bytes of its parent's value, which the
   * daemons' allocation samples tell ({@link Exploration#shareAtMost}).
   */
  public boolean weighsAllocatedBytes(Hypothesis h) {
    return h.id().equals("object_creation_overhead") || h.id().equals("allocation_share");
  }

  /**
   * Whether the {@link #events} of {@code h} split their parent's between the children (each compilation is of
   * one method, in one class and package), rather than being counted in several (a sample has many frames).
   */
  public boolean eventsPartition(Hypothesis h) {
    return h.id().equals("jit_compile_time") || h.id().equals("class_load_time");
  }

  public Hypothesis get(String id) {
    return byId.get(id);
  }

  /** Whether {@code below} is {@code above} refined, one or more why-steps down (false for {@code above} itself). */
  public boolean refines(Hypothesis below, Hypothesis above) {
    for (Hypothesis h = below; h != null && h.parent() != null; h = byId.get(h.parent())) {
      if (h.parent().equals(above.id())) {
        return true;
      }
    }
    return false;
  }

  /** Whether the hypothesis {@code id} is {@code why} or refines it; false when either is not in the catalog. */
  public boolean isOrRefines(String id, String why) {
    Hypothesis below = byId.get(id);
    Hypothesis above = byId.get(why);
    return below != null && above != null && (below == above || refines(below, above));
  }

  public List<Hypothesis> all() {
    return List.copyOf(byId.values());
  }
}
