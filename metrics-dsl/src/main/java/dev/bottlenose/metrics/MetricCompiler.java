package dev.bottlenose.metrics;

import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compiles a metric–focus pair into a {@link ProbePlan}: the focus is ANDed with the metric's
 * constraint (Paradyn's "metric AND focus"), using the constraint method the metric names for /Code.
 * Cheap sources come first: events and samples are watched; bytecode probes are used only for what
 * needs exact counts or times (calls, wall time, allocations).
 */
public final class MetricCompiler {
  private static final Set<String> FORMS = Set.of("interpreted", "c1", "c2", "compiled", "inlined", "native");

  /** The plan for {@code metric} at {@code focus}; throws {@link MetricException} saying why it cannot be measured there. */
  public static ProbePlan compile(MetricDefinition metric, Focus focus) {
    PlanBuilder b = new PlanBuilder();
    Formula f = compile(metric, focus, b);
    return new ProbePlan(metric.name(), focus, metric.unit(), metric.combine(), b.items(), f, b.notes());
  }

  private static Formula compile(MetricDefinition d, Focus focus, PlanBuilder b) {
    for (Hierarchy h : focus.constrained().keySet()) {
      if (!d.refinementModes().containsKey(h)) {
        throw new MetricException("metric '" + d.name() + "' cannot be refined to " + h.root() + " (focus " + focus + "); it allows "
            + String.join(", ", d.refinements()));
      }
    }
    Ast.Metric ast = d.ast();
    if (d.isDerived()) {
      try {
        return expr(ast.value, d, focus, b);
      } catch (MetricException e) {
        throw e.getMessage().startsWith("metric '" + d.name() + "'") ? e
            : new MetricException("metric '" + d.name() + "' cannot be measured at " + focus + " because " + e.getMessage());
      }
    }
    Accumulator acc = Accumulator.of(ast.accumulates);
    Formula raw = acc.isProbe() ? probe(d, acc, focus, b) : sources(d, acc, focus, b);
    return ast.report.word().equals("total") ? raw : Formula.op('/', raw, new Formula.Interval());
  }

  private static Formula expr(Ast.Expr e, MetricDefinition d, Focus focus, PlanBuilder b) {
    if (e instanceof Ast.Num n) {
      return new Formula.Const(n.value());
    }
    if (e instanceof Ast.Ref r) {
      String key = Calibration.CONSTANTS.get(r.name());
      return key != null ? new Formula.Cal(key) : compile(d.operand(r.name()), focus, b);
    }
    if (e instanceof Ast.Program p) {
      return compile(d.operand(p.name()), programFocus(focus), b);
    }
    if (e instanceof Ast.Negate n) {
      return Formula.op('-', new Formula.Const(0), expr(n.operand(), d, focus, b));
    }
    Ast.Binary bin = (Ast.Binary) e;
    return Formula.op(bin.op(), expr(bin.left(), d, focus, b), expr(bin.right(), d, focus, b));
  }

  private static Focus programFocus(Focus focus) {
    return Focus.of(focus.get(Hierarchy.PROCESS), focus.get(Hierarchy.MACHINE));
  }

  private static Formula sources(MetricDefinition d, Accumulator acc, Focus focus, PlanBuilder b) {
    ResourcePath code = focus.get(Hierarchy.CODE);
    String form = form(d, code, acc, b);
    code = code.depth() > 3 ? ResourcePath.of(Hierarchy.CODE, code.segments().subList(0, 3)) : code;
    if (code.depth() > 2 && acc.events().contains(Event.CLASS_DEFINE)) {
      throw new MetricException("metric '" + d.name() + "' charges each class defined to a class (its loader's, or its own"
          + " for the JDK's loaders), so it is measured at a /Code package or class, not at a method (focus " + focus + ")");
    }
    Map<Set<Conditions.Lit>, Integer> poly = d.ast().when == null ? Conditions.one() : Conditions.expand(d.ast().when);
    List<Conditions.Lit> focusLits = new ArrayList<>();
    if (!code.isRoot()) {
      focusLits.add(new Conditions.Lit(Hierarchy.CODE, d.refinementModes().get(Hierarchy.CODE), code));
    }
    if (!focus.get(Hierarchy.THREADS).isRoot()) {
      focusLits.add(new Conditions.Lit(Hierarchy.THREADS, null, focus.get(Hierarchy.THREADS)));
    }
    Hierarchy object = acc.objectHierarchy();
    if (object != null && !focus.get(object).isRoot()) {
      focusLits.add(Conditions.Lit.object(focus.get(object)));
    }
    Map<Map<Hierarchy, Conditions.Lit>, Integer> terms = Conditions.terms(Conditions.times(poly, Map.of(Set.copyOf(focusLits), 1)));
    if (terms.isEmpty()) {
      b.note("the constraint and the focus never hold together; the value is always 0");
    }
    String measure = acc.measure().equals("duration") ? "nanos" : acc.measure();
    String type = allocatedType(d, focus);
    Formula sum = new Formula.Const(0);
    for (Event event : acc.events()) {
      for (Map.Entry<Map<Hierarchy, Conditions.Lit>, Integer> term : terms.entrySet()) {
        String id = b.source(event, term.getKey(), event == Event.CPU_SAMPLE ? form : null, type);
        sum = plus(sum, term.getValue(), new Formula.Item(id, measure));
      }
    }
    return measure.equals("nanos") ? Formula.op('*', sum, new Formula.Const(1e-9)) : sum;
  }

  private static Formula plus(Formula sum, int coefficient, Formula item) {
    Formula term = coefficient == 1 || coefficient == -1 ? item : Formula.op('*', new Formula.Const(Math.abs(coefficient)), item);
    if (sum instanceof Formula.Const c && c.value() == 0 && coefficient > 0) {
      return term;
    }
    return Formula.op(coefficient > 0 ? '+' : '-', sum, term);
  }

  /** The source form for cpu samples: the metric's form or the focus's form segment, mapped onto JFR frame types. */
  private static String form(MetricDefinition d, ResourcePath code, Accumulator acc, PlanBuilder b) {
    String focusForm = code.depth() > 3 ? code.segments().get(3) : null;
    if (code.depth() > 4 || focusForm != null && !FORMS.contains(focusForm)) {
      throw new MetricException("a /Code focus may end in one execution form (" + String.join(", ", new java.util.TreeSet<>(FORMS)) + "), not " + code);
    }
    if (focusForm != null && !acc.samplesCpu()) {
      throw new MetricException("metric '" + d.name() + "' cannot be measured per execution form (focus " + code
          + "); only cpu samples carry the form of the running code");
    }
    String metricForm = d.form().equals("any") ? null : d.form();
    if (metricForm != null && focusForm != null && !sourceForm(metricForm).equals(sourceForm(focusForm))) {
      throw new MetricException("metric '" + d.name() + "' measures form " + metricForm + " but the focus names form " + focusForm);
    }
    String form = metricForm != null ? metricForm : focusForm;
    if ("c1".equals(form) || "c2".equals(form)) {
      b.note("form " + form + " is measured as 'compiled': JFR's frame types do not tell C1 code from C2 code");
    }
    return form == null ? null : sourceForm(form);
  }

  private static String sourceForm(String form) {
    return form.equals("c1") || form.equals("c2") ? "compiled" : form;
  }

  private static Formula probe(MetricDefinition d, Accumulator acc, Focus focus, PlanBuilder b) {
    ResourcePath code = focus.get(Hierarchy.CODE);
    if (code.depth() > 3) {
      throw new MetricException("metric '" + d.name() + "' is measured by bytecode probes, which count every execution form; the focus names form "
          + code.segments().get(3) + " (" + code + ")");
    }
    Ast.Literal caller = (Ast.Literal) d.ast().when;
    String measure = acc.word().equals("wall_time") ? "nanos" : acc.word().equals("allocated_bytes") ? "bytes" : "count";
    if (code.isRoot()) {
      if (acc.word().equals("wall_time") && caller == null) {
        b.note("wall time of the whole program is the interval itself");
        return new Formula.Interval();
      }
      throw new MetricException("metric '" + d.name() + "' is measured by bytecode probes in the focus's methods; at the whole program that would be "
          + "every method of the target, so refine the focus to a /Code package, class or method");
    }
    String id;
    if (caller != null) {
      if (code.depth() != 3) {
        throw new MetricException("metric '" + d.name() + "' counts calls from " + caller.pattern() + " with a call-site probe, which needs one callee method; "
            + "refine the focus to a method, not " + code);
      }
      id = b.probe("call_site", caller.pattern(), code);
    } else {
      String kind = kind(acc, d.refinementModes().get(Hierarchy.CODE));
      String type = allocatedType(d, focus);
      id = code.depth() == 3 ? b.probe(kind, code, null, type) : b.expansion(kind, code, type);
    }
    Formula item = new Formula.Item(id, measure);
    return measure.equals("nanos") ? Formula.op('*', item, new Formula.Const(1e-9)) : item;
  }

  /** The allocated type a /Memory focus names (null: every type); the probes count only objects of it. */
  private static String allocatedType(MetricDefinition d, Focus focus) {
    ResourcePath memory = focus.get(Hierarchy.MEMORY);
    if (memory.isRoot()) {
      return null;
    }
    if (memory.depth() > 1) {
      throw new MetricException("metric '" + d.name() + "' refines /Memory to allocated types, not to allocation sites (" + memory
          + "); the site is the /Code part of the focus");
    }
    return memory.segments().get(0);
  }

  private static String kind(Accumulator acc, ConstraintMode mode) {
    switch (acc.word()) {
      case "calls":
        return "call_count";
      case "wall_time":
        return mode == ConstraintMode.EXCLUSIVE ? "wall_exclusive" : "wall_inclusive";
      default:
        return "allocation";
    }
  }

  private MetricCompiler() {}
}
