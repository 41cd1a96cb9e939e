package dev.bottlenose.metrics;

import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Hierarchy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One checked metric: a counter or timer accumulated while its constraint holds (a base metric), or a
 * formula over other metrics (a derived metric). Made by {@link MetricLibrary}; compile it for a focus
 * with {@link MetricCompiler}.
 */
public final class MetricDefinition {
  private final Ast.Metric ast;
  private final String text;
  private final String notes;
  private final Units units;
  private final LinkedHashMap<Hierarchy, ConstraintMode> refinements;
  private final Map<String, MetricDefinition> operands;

  MetricDefinition(Ast.Metric ast, String text, String notes, Units units, Map<Hierarchy, ConstraintMode> refinements, Map<String, MetricDefinition> operands) {
    this.ast = ast;
    this.text = text;
    this.notes = notes;
    this.units = units;
    this.refinements = new LinkedHashMap<>(refinements);
    this.operands = Map.copyOf(operands);
  }

  public String name() {
    return ast.name;
  }

  public String description() {
    return ast.description;
  }

  /** The unit of the reported value, e.g. {@code fraction}, {@code count/s}, {@code bytes/count}. */
  public String unit() {
    return units.toString();
  }

  public boolean isDerived() {
    return ast.value != null;
  }

  /** What it accumulates, e.g. {@code cpu_time} or {@code duration of monitor_enter, park}; for a derived metric its formula. */
  public String accumulates() {
    if (isDerived()) {
      return Render.expr(ast.value);
    }
    StringBuilder sb = new StringBuilder(ast.accumulates.what().word());
    for (int i = 0; i < ast.accumulates.events().size(); i++) {
      sb.append(i == 0 ? " of " : ", ").append(ast.accumulates.events().get(i).word());
    }
    return sb.toString();
  }

  /** The constraint expression under which it accumulates, {@code true} when there is none. */
  public String constraint() {
    return ast.when == null ? "true" : Render.cond(ast.when);
  }

  /** The hierarchies a focus may refine, with the /Code constraint method, e.g. {@code [/Code inclusive, /Threads]}. */
  public List<String> refinements() {
    List<String> list = new ArrayList<>();
    refinements.forEach((h, mode) -> list.add(h.root() + (mode == null ? "" : " " + mode.word())));
    return list;
  }

  /** The hierarchies a focus may constrain for this metric. */
  public Set<Hierarchy> refinable() {
    return Collections.unmodifiableSet(refinements.keySet());
  }

  /** How values combine across threads and processes: sum, avg, min or max. */
  public String combine() {
    return ast.combine.word();
  }

  /** total, rate (per second) or fraction (of wall time); {@code derived} for a derived metric. */
  public String report() {
    return isDerived() ? "derived" : ast.report.word();
  }

  /** The execution form it is restricted to: any, interpreted, c1, c2, compiled, inlined or native. */
  public String form() {
    return ast.form == null ? "any" : ast.form.word();
  }

  /** The definition as written in its file. */
  public String definition() {
    return text;
  }

  /** The comment block written just above the definition, without the '#' marks; empty if none. */
  public String notes() {
    return notes;
  }

  Ast.Metric ast() {
    return ast;
  }

  Units units() {
    return units;
  }

  Map<Hierarchy, ConstraintMode> refinementModes() {
    return Collections.unmodifiableMap(refinements);
  }

  MetricDefinition operand(String name) {
    return operands.get(name);
  }

  @Override
  public String toString() {
    return "metric " + name();
  }
}
