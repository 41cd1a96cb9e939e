package dev.bottlenose.metrics;

import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Hierarchy;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks parsed metrics against each other and the library they join: names, events, hierarchies,
 * constraints, units, derived-metric references and cycles. Broken metrics yield errors, not definitions.
 */
final class Checker {
  private final SourceText source;
  private final List<DslError> errors;
  private final Map<String, MetricDefinition> library;
  private final Map<String, Ast.Metric> local = new LinkedHashMap<>();
  private final Map<String, MetricDefinition> done = new LinkedHashMap<>();
  private final List<String> visiting = new ArrayList<>();

  Checker(SourceText source, List<DslError> errors, Map<String, MetricDefinition> library) {
    this.source = source;
    this.errors = errors;
    this.library = library;
  }

  List<MetricDefinition> check(List<Ast.Metric> metrics) {
    for (Ast.Metric m : metrics) {
      if (library.containsKey(m.name)) {
        error(m.nameAt, "metric '" + m.name + "' is already defined in the library; choose another name");
      } else if (Calibration.CONSTANTS.containsKey(m.name) || m.name.equals("program")) {
        error(m.nameAt, "'" + m.name + "' is reserved (a calibration constant or 'program'); choose another metric name");
      } else if (local.containsKey(m.name)) {
        DslError first = source.error(local.get(m.name).nameAt, "");
        error(m.nameAt, "second metric named '" + m.name + "' (the first is at " + first.line() + ":" + first.column() + ")");
      } else {
        local.put(m.name, m);
      }
    }
    List<MetricDefinition> defined = new ArrayList<>();
    for (Ast.Metric m : local.values()) {
      MetricDefinition d = define(m);
      if (d != null) {
        defined.add(d);
      }
    }
    return defined;
  }

  private MetricDefinition define(Ast.Metric m) {
    if (done.containsKey(m.name)) {
      return done.get(m.name);
    }
    visiting.add(m.name);
    int before = errors.size();
    Units units = m.value != null || m.clauseAt.containsKey("value") ? derived(m) : base(m);
    visiting.remove(visiting.size() - 1);
    MetricDefinition d = errors.size() > before || units == null ? null : new MetricDefinition(m, text(m), notes(m), units, refinements(m), operands(m));
    done.put(m.name, d);
    return d;
  }

  private Units base(Ast.Metric m) {
    require(m, "description", "unit", "accumulates", "refine", "combine", "report");
    if (m.accumulates == null) {
      return null;
    }
    Accumulator acc = Accumulator.of(m.accumulates);
    if (!checkEvents(m.accumulates, acc)) {
      return null;
    }
    String what = acc.describe(m.accumulates);
    checkRefine(m, acc, what);
    if (m.when != null) {
      new ConditionChecker(this, acc, what).check(m.when);
    }
    if (m.form != null && !m.form.word().equals("any") && !acc.samplesCpu()) {
      error(m.form.at(), "'form' applies only to cpu samples (cpu_time or events of cpu_sample); " + what + " has no execution form");
    }
    if (m.report == null) {
      return null;
    }
    Units units = reported(acc.units(), m.report.word());
    if (m.report.word().equals("fraction") && !acc.units().equals(Units.SECONDS)) {
      error(m.report.at(), "'report fraction' needs a time (wall_time, cpu_time or duration of …), but " + what + " is in " + acc.units() + "; use report rate or total");
      return null;
    }
    if (m.unit != null && !Units.of(m.unit).equals(units)) {
      error(m.unit.top().at(), "unit '" + Render.unit(m.unit) + "' does not match the value: " + what + " with 'report " + m.report.word() + "' is in " + units);
    }
    return units;
  }

  private static Units reported(Units accumulated, String report) {
    switch (report) {
      case "total":
        return accumulated;
      case "rate":
        return accumulated.divide(Units.SECONDS);
      default:
        return Units.NONE;
    }
  }

  private boolean checkEvents(Ast.Accumulates a, Accumulator acc) {
    boolean ok = true;
    for (int i = 0; i < a.events().size(); i++) {
      Ast.Word w = a.events().get(i);
      Event e = acc.events().get(i);
      if (e == null) {
        error(w.at(), "unknown event '" + w.word() + "'; expected one of " + String.join(", ", Event.names()));
        ok = false;
      } else if (!e.measures().contains(acc.measure())) {
        error(w.at(), "event '" + w.word() + "' reports no " + acc.measure() + "; it reports " + String.join(", ", e.measures()));
        ok = false;
      }
    }
    return ok;
  }

  private void checkRefine(Ast.Metric m, Accumulator acc, String what) {
    if (m.refine == null) {
      return;
    }
    EnumMap<Hierarchy, Set<ConstraintMode>> allowed = acc.allowed();
    for (Ast.Refinement r : checkedRefinements(m)) {
      if (!allowed.containsKey(r.hierarchy())) {
        error(r.at(), what + " cannot be restricted to " + r.hierarchy().root() + "; it may refine " + Render.roots(allowed.keySet()));
      } else if (r.hierarchy() == Hierarchy.CODE && r.mode() == null) {
        error(r.at(), "'refine /Code' needs a constraint method: " + Render.modes(allowed.get(Hierarchy.CODE)));
      } else if (r.mode() != null && !allowed.get(r.hierarchy()).contains(r.mode())) {
        error(r.at(), what + " refines /Code only with " + Render.modes(allowed.get(Hierarchy.CODE)) + ", not " + r.mode().word());
      }
    }
  }

  /** The refinements, with errors for a hierarchy named twice and a method on a non-/Code hierarchy. */
  private List<Ast.Refinement> checkedRefinements(Ast.Metric m) {
    List<Ast.Refinement> ok = new ArrayList<>();
    EnumMap<Hierarchy, Ast.Refinement> seen = new EnumMap<>(Hierarchy.class);
    for (Ast.Refinement r : m.refine) {
      if (seen.containsKey(r.hierarchy())) {
        error(r.at(), "'refine' names " + r.hierarchy().root() + " twice");
      } else if (r.mode() != null && r.hierarchy() != Hierarchy.CODE) {
        error(r.at(), "a constraint method (" + r.mode().word() + ") applies only to /Code, not " + r.hierarchy().root());
      } else {
        seen.put(r.hierarchy(), r);
        ok.add(r);
      }
    }
    return ok;
  }

  private Units derived(Ast.Metric m) {
    require(m, "description", "value", "combine");
    for (String clause : List.of("accumulates", "when", "report", "form")) {
      if (m.clauseAt.containsKey(clause)) {
        error(m.clauseAt.get(clause), "'" + clause + "' does not apply to derived metric '" + m.name + "', whose 'value' is computed from other metrics");
      }
    }
    if (m.value == null) {
      return null;
    }
    Units units = new ExprChecker(this).units(m.value);
    if (units == null) {
      return null;
    }
    if (m.unit == null && !m.clauseAt.containsKey("unit")) {
      error(m.nameAt, "derived metric '" + m.name + "' has no 'unit' clause; its value is in " + units + ", so write 'unit " + units + "'");
    } else if (m.unit != null && !Units.of(m.unit).equals(units)) {
      error(m.unit.top().at(), "unit '" + Render.unit(m.unit) + "' does not match the value " + Render.expr(m.value) + ", which is in " + units);
    }
    checkDerivedRefine(m);
    return units;
  }

  private void checkDerivedRefine(Ast.Metric m) {
    if (m.refine == null) {
      return;
    }
    Map<Hierarchy, ConstraintMode> allowed = derivedRefinements(m);
    for (Ast.Refinement r : checkedRefinements(m)) {
      if (r.mode() != null) {
        error(r.at(), "a derived metric refines /Code the way each of its operands does; drop '" + r.mode().word() + "'");
      } else if (!allowed.containsKey(r.hierarchy())) {
        error(r.at(), "an operand of '" + m.name + "' cannot be refined to " + r.hierarchy().root() + "; its operands allow " + Render.roots(allowed.keySet()));
      }
    }
  }

  private Map<Hierarchy, ConstraintMode> refinements(Ast.Metric m) {
    Map<Hierarchy, ConstraintMode> all = m.value != null ? derivedRefinements(m) : new LinkedHashMap<>();
    if (m.refine == null) {
      return all;
    }
    Map<Hierarchy, ConstraintMode> listed = new LinkedHashMap<>();
    for (Ast.Refinement r : m.refine) {
      listed.put(r.hierarchy(), m.value != null ? all.get(r.hierarchy()) : r.mode());
    }
    return listed;
  }

  /** What every non-program() operand allows; the /Code method is kept when they all agree. */
  private Map<Hierarchy, ConstraintMode> derivedRefinements(Ast.Metric m) {
    Map<Hierarchy, ConstraintMode> result = null;
    for (Map.Entry<String, MetricDefinition> e : operands(m).entrySet()) {
      if (ExprChecker.onlyInProgram(m.value, e.getKey())) {
        continue;
      }
      Map<Hierarchy, ConstraintMode> its = e.getValue().refinementModes();
      if (result == null) {
        result = new LinkedHashMap<>(its);
      } else {
        result.keySet().retainAll(its.keySet());
        result.replaceAll((h, mode) -> mode == its.get(h) ? mode : null);
      }
    }
    if (result == null) {
      result = new LinkedHashMap<>();
      result.put(Hierarchy.PROCESS, null);
      result.put(Hierarchy.MACHINE, null);
    }
    return result;
  }

  private Map<String, MetricDefinition> operands(Ast.Metric m) {
    Map<String, MetricDefinition> ops = new LinkedHashMap<>();
    if (m.value != null) {
      for (String name : ExprChecker.names(m.value)) {
        MetricDefinition d = lookup(name);
        if (d != null) {
          ops.put(name, d);
        }
      }
    }
    return ops;
  }

  /** A metric by name: defined earlier in the library, or in this file (checked now); null if unknown or broken. */
  MetricDefinition lookup(String name) {
    if (library.containsKey(name)) {
      return library.get(name);
    }
    Ast.Metric m = local.get(name);
    return m == null || visiting.contains(name) ? null : define(m);
  }

  boolean isKnown(String name) {
    return library.containsKey(name) || local.containsKey(name);
  }

  /** The cycle through {@code name} when it is being defined right now, e.g. {@code a -> b -> a}; else null. */
  String cycle(String name) {
    int i = visiting.indexOf(name);
    return i < 0 ? null : String.join(" -> ", visiting.subList(i, visiting.size())) + " -> " + name;
  }

  private void require(Ast.Metric m, String... clauses) {
    if (m.broken) {
      return;
    }
    for (String c : clauses) {
      if (!m.clauseAt.containsKey(c)) {
        error(m.nameAt, "metric '" + m.name + "' has no '" + c + "' clause");
      }
    }
  }

  private String text(Ast.Metric m) {
    return source.text().substring(m.start, Math.max(m.start, Math.min(m.end, source.text().length())));
  }

  /** The '#' lines directly above the metric, without the marks (read backwards from it, line by line). */
  private String notes(Ast.Metric m) {
    String text = source.text();
    List<String> notes = new ArrayList<>();
    int lineStart = text.lastIndexOf('\n', m.start - 1) + 1;
    while (lineStart > 0) {
      int previous = text.lastIndexOf('\n', lineStart - 2) + 1;
      String line = text.substring(previous, lineStart - 1).strip();
      if (!line.startsWith("#")) {
        break;
      }
      notes.add(0, line.startsWith("# ") ? line.substring(2) : line.substring(1));
      lineStart = previous;
    }
    return String.join("\n", notes).strip();
  }

  void error(int at, String message) {
    errors.add(source.error(at, message));
  }
}
