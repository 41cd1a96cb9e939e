package dev.bottlenose.metrics;

import dev.bottlenose.model.Focus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The VM-vs-application breakdown of a focus's time, from built-in metrics: the focus's code running
 * ({@code app}: interpreted, and compiled, which is the CPU time with the focus on the stack less the interpreted),
 * what the VM spends on it ({@code vm}, each cost once: GC pauses are not counted again among the safepoints), and
 * its threads blocked ({@code wait}: neither the program running nor a VM cost). Each value is seconds per second
 * (a share of one thread's time, summed over threads). The web page's view and the {@code vmapp} command both
 * read it from here.
 */
public final class VmAppBreakdown {
  /** The metric the compiled time is derived from: the focus's CPU time, on the stack anywhere. */
  public static final String CPU = "cpu_inclusive";

  /** A category: its key, label, kind ({@code app}, {@code vm}, {@code wait}) and metric (null: derived). */
  public record Category(String key, String label, String kind, String metric) {}

  public static final List<Category> CATEGORIES = List.of(
      new Category("interpreted", "Interpreted code", "app", "interpreted_time"),
      new Category("compiled", "Compiled code", "app", null),
      new Category("gc", "Garbage collection", "vm", "gc_time"),
      new Category("jit", "JIT compilation", "vm", "jit_compile_time"),
      new Category("class_load", "Class loading", "vm", "class_load_time"),
      new Category("safepoint", "Safepoints", "vm", "safepoint_time"),
      new Category("method_call_overhead", "Method-call overhead", "vm", "method_call_overhead"),
      new Category("object_creation_overhead", "Object-creation overhead", "vm", "object_creation_overhead"),
      new Category("sync_wait", "Blocked on contended locks", "wait", "sync_wait"),
      new Category("io_wait", "Blocked in file and socket I/O", "wait", "io_wait"));

  /**
   * Estimates from samples that stand for a category's exact metric wherever they can measure the focus: the exact
   * {@code sync_wait} records every park of the program to find the lock parks among them (a server's idle pool parks
   * thousands of times a second), and {@code object_creation_overhead} puts a probe at every allocation of the focus
   * and cannot measure the whole program at all; their sampled estimates cost the same whatever the program does,
   * and are what the consultant's hypotheses test.
   */
  private static final Map<String, String> SAMPLED = Map.of("sync_wait", "sync_wait_sampled",
      "object_creation_overhead", "object_creation_sampled");

  private VmAppBreakdown() {}

  /**
   * The metric that measures {@code c} at {@code focus}: its estimate from samples where that refines every hierarchy
   * the focus constrains ({@code sync_wait_sampled} has no stacks, so a focus in the code takes the exact
   * {@code sync_wait}), else its own; null for the derived category.
   */
  public static String metric(Category c, Focus focus) {
    String sampled = c.metric() == null ? null : SAMPLED.get(c.metric());
    if (sampled == null) {
      return c.metric();
    }
    return MetricLibrary.builtin().metric(sampled).refinable().containsAll(focus.constrained().keySet()) ? sampled
        : c.metric();
  }

  /**
   * Each category's value from one interval's metric values (by category key, and {@link #CPU}): the measured ones
   * as they are, compiled as {@link #CPU} less interpreted (never below 0); a category whose value is missing is
   * left out.
   */
  public static Map<String, Double> shares(Map<String, Double> byKey) {
    Map<String, Double> shares = new LinkedHashMap<>();
    for (Category c : CATEGORIES) {
      Double v = c.metric() == null ? null : byKey.get(c.key());
      if (v != null) {
        shares.put(c.key(), v);
      }
    }
    Double cpu = byKey.get(CPU);
    if (cpu != null) {
      shares.put("compiled", Math.max(0, cpu - shares.getOrDefault("interpreted", 0.0)));
    }
    return shares;
  }
}
