package dev.bottlenose.metrics;

import java.util.LinkedHashSet;
import java.util.Set;

/** Infers the unit of a derived metric's value and checks the names it uses. */
final class ExprChecker {
  private static final Units PER_COUNT = Units.SECONDS.divide(Units.COUNT);
  private static final Units BYTES_PER_COUNT = Units.BYTES.divide(Units.COUNT);
  private final Checker checker;

  ExprChecker(Checker checker) {
    this.checker = checker;
  }

  /** The unit of {@code e}, or null after reporting an error in it. */
  Units units(Ast.Expr e) {
    if (e instanceof Ast.Num) {
      return Units.NONE;
    }
    if (e instanceof Ast.Ref r) {
      if (Calibration.CONSTANTS.containsKey(r.name())) {
        return Calibration.CONSTANTS.get(r.name()).equals(Calibration.ALLOCATION_BYTES) ? BYTES_PER_COUNT : PER_COUNT;
      }
      return metric(r.name(), r.at());
    }
    if (e instanceof Ast.Program p) {
      return metric(p.name(), p.at());
    }
    if (e instanceof Ast.Negate n) {
      return units(n.operand());
    }
    Ast.Binary b = (Ast.Binary) e;
    Units left = units(b.left());
    Units right = units(b.right());
    if (left == null || right == null) {
      return null;
    }
    switch (b.op()) {
      case '*':
        return left.times(right);
      case '/':
        return left.divide(right);
      default:
        if (!left.equals(right)) {
          checker.error(b.at(), "cannot " + (b.op() == '+' ? "add " : "subtract ") + right + " " + (b.op() == '+' ? "to " : "from ") + left
              + " in " + Render.expr(b) + "; both sides of '" + b.op() + "' need the same unit");
          return null;
        }
        return left;
    }
  }

  private Units metric(String name, int at) {
    String cycle = checker.cycle(name);
    if (cycle != null) {
      checker.error(at, "cycle among derived metrics: " + cycle);
      return null;
    }
    if (!checker.isKnown(name)) {
      checker.error(at, "unknown metric '" + name + "'; expected a metric of this file or the library, or a calibration constant (allocation_size, allocation_time, sample_period, virtual_call_time)");
      return null;
    }
    MetricDefinition d = checker.lookup(name);
    return d == null ? null : d.units();
  }

  /** The metric names (not constants) the expression uses, in order. */
  static Set<String> names(Ast.Expr e) {
    Set<String> names = new LinkedHashSet<>();
    collect(e, names, true);
    return names;
  }

  /** True if {@code name} appears in {@code e} only inside program(…). */
  static boolean onlyInProgram(Ast.Expr e, String name) {
    Set<String> outside = new LinkedHashSet<>();
    collect(e, outside, false);
    return !outside.contains(name);
  }

  private static void collect(Ast.Expr e, Set<String> names, boolean withProgram) {
    if (e instanceof Ast.Ref r && !Calibration.CONSTANTS.containsKey(r.name())) {
      names.add(r.name());
    } else if (e instanceof Ast.Program p && withProgram) {
      names.add(p.name());
    } else if (e instanceof Ast.Negate n) {
      collect(n.operand(), names, withProgram);
    } else if (e instanceof Ast.Binary b) {
      collect(b.left(), names, withProgram);
      collect(b.right(), names, withProgram);
    }
  }
}
