package dev.bottlenose.metrics;

import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Hierarchy;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** What a base metric accumulates, read from its {@code accumulates} clause: probe-based or event-based. */
record Accumulator(String word, List<Event> events, String measure) {
  private static final Set<String> PROBES = Set.of("calls", "wall_time", "allocations", "allocated_bytes");

  static Accumulator of(Ast.Accumulates a) {
    String w = a.what().word();
    if (w.equals("cpu_time")) {
      return new Accumulator(w, List.of(Event.CPU_SAMPLE), "duration");
    }
    List<Event> events = new ArrayList<>();
    for (Ast.Word e : a.events()) {
      events.add(Event.byWord(e.word()));
    }
    return new Accumulator(w, events, PROBES.contains(w) ? null : w);
  }

  boolean isProbe() {
    return PROBES.contains(word);
  }

  Units units() {
    switch (word) {
      case "calls":
      case "allocations":
      case "count":
        return Units.COUNT;
      case "allocated_bytes":
      case "bytes":
        return Units.BYTES;
      default:
        return Units.SECONDS;
    }
  }

  /** True when it counts only cpu samples, the one source with an execution form. */
  boolean samplesCpu() {
    return !isProbe() && events.stream().allMatch(e -> e == Event.CPU_SAMPLE);
  }

  /** The hierarchies a focus may refine for it, with the /Code constraint methods each allows. */
  EnumMap<Hierarchy, Set<ConstraintMode>> allowed() {
    EnumMap<Hierarchy, Set<ConstraintMode>> m = new EnumMap<>(Hierarchy.class);
    if (isProbe()) {
      m.put(Hierarchy.CODE, word.equals("wall_time") ? EnumSet.of(ConstraintMode.EXCLUSIVE, ConstraintMode.INCLUSIVE) : EnumSet.of(ConstraintMode.EXCLUSIVE));
      if (word.equals("allocations") || word.equals("allocated_bytes")) {
        m.put(Hierarchy.MEMORY, EnumSet.noneOf(ConstraintMode.class));
      }
    } else {
      if (events.stream().allMatch(e -> e.codeFilter)) {
        boolean onMethod = events.stream().anyMatch(Event::matchesMethodItself);
        m.put(Hierarchy.CODE, onMethod ? EnumSet.of(ConstraintMode.EXCLUSIVE) : EnumSet.allOf(ConstraintMode.class));
      }
      if (events.stream().allMatch(e -> e.threadFilter)) {
        m.put(Hierarchy.THREADS, EnumSet.noneOf(ConstraintMode.class));
      }
      Hierarchy object = objectHierarchy();
      if (object != null) {
        m.put(object, EnumSet.noneOf(ConstraintMode.class));
      }
      if (events.stream().allMatch(e -> e == Event.ALLOC_SAMPLE)) {
        m.put(Hierarchy.MEMORY, EnumSet.noneOf(ConstraintMode.class));
      }
    }
    m.put(Hierarchy.PROCESS, EnumSet.noneOf(ConstraintMode.class));
    m.put(Hierarchy.MACHINE, EnumSet.noneOf(ConstraintMode.class));
    return m;
  }

  /** The object hierarchy (/SyncObjects, /IO) every one of its events can be filtered on, or null. */
  Hierarchy objectHierarchy() {
    if (isProbe() || events.isEmpty()) {
      return null;
    }
    Hierarchy first = events.get(0).objectHierarchy();
    return events.stream().allMatch(e -> e.objectHierarchy() == first) ? first : null;
  }

  /** How it reads in messages, e.g. {@code 'duration of gc_pause'}. */
  String describe(Ast.Accumulates a) {
    StringBuilder sb = new StringBuilder("'").append(word);
    for (int i = 0; i < a.events().size(); i++) {
      sb.append(i == 0 ? " of " : ", ").append(a.events().get(i).word());
    }
    return sb.append('\'').toString();
  }
}
