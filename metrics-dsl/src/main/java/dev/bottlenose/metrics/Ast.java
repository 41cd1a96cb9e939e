package dev.bottlenose.metrics;

import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The syntax tree of a metric file, every node with its offset in the text. */
final class Ast {

  /** One {@code metric NAME { … }}: its clauses by keyword, each given at most once. */
  static final class Metric {
    final String name;
    final int nameAt;
    final Map<String, Integer> clauseAt = new LinkedHashMap<>();
    String description;
    Unit unit;
    Accumulates accumulates;
    Cond when;
    List<Refinement> refine;
    Word combine;
    Word report;
    Word form;
    Expr value;
    int start;
    int end;
    /** True when a clause did not parse: missing clauses are then not reported (they may be in the broken text). */
    boolean broken;

    Metric(String name, int nameAt) {
      this.name = name;
      this.nameAt = nameAt;
    }
  }

  record Word(String word, int at) {}

  /** {@code unit top [/ bottom]}. */
  record Unit(Word top, Word bottom) {}

  /** {@code accumulates calls} ({@code events} empty), or {@code accumulates duration of e1, e2}. */
  record Accumulates(Word what, List<Word> events) {}

  /** {@code /Code inclusive}: a hierarchy a focus may refine, and for /Code how. */
  record Refinement(Hierarchy hierarchy, ConstraintMode mode, int at) {}

  sealed interface Cond permits And, Or, Not, Literal {}

  record And(List<Cond> parts) implements Cond {}

  record Or(List<Cond> parts) implements Cond {}

  record Not(Cond part) implements Cond {}

  /** {@code [mode:]pattern}; {@code mode} is null when not written. */
  record Literal(ConstraintMode mode, ResourcePath pattern, int at) implements Cond {}

  sealed interface Expr permits Num, Ref, Program, Binary, Negate {}

  record Num(double value, String text, int at) implements Expr {}

  /** A metric or calibration constant by name. */
  record Ref(String name, int at) implements Expr {}

  /** {@code program(name)}: the metric at the whole-program focus (only /Process, /Machine kept). */
  record Program(String name, int at) implements Expr {}

  record Binary(char op, Expr left, Expr right, int at) implements Expr {}

  record Negate(Expr operand, int at) implements Expr {}

  private Ast() {}
}
