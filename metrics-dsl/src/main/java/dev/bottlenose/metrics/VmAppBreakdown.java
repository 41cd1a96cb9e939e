package dev.bottlenose.metrics;

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

  private VmAppBreakdown() {}

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
