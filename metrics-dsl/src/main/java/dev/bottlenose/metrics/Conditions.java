package dev.bottlenose.metrics;

import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a constraint expression into a signed sum of conjunctions, each one watched source. A
 * condition is an indicator (1 while true): {@code not a = 1 - a}, {@code a and b = a·b},
 * {@code a or b = a + b - a·b}, and {@code a·a = a}; the expanded polynomial counts every event
 * exactly once however the terms overlap. Each conjunction then merges to at most one constraint per
 * hierarchy (nested paths keep the narrower one, disjoint ones make the term empty), which is what one
 * source can filter on.
 */
final class Conditions {
  static final int MAX_TERMS = 32;

  /** One constraint a source can filter on: a /Code path with its method, or a /Threads path (mode null); a root always holds. */
  record Lit(Hierarchy hierarchy, ConstraintMode mode, ResourcePath path) {
    static Lit of(Ast.Literal l) {
      ResourcePath p = l.pattern();
      while (!p.isRoot() && p.name().equals("**")) {
        p = p.parent();
      }
      if (p.toString().contains("*")) {
        throw new MetricException("the agent filters on one package, class or method path; the pattern " + l.pattern()
            + " has a '*' it cannot send (only a trailing /** can be, meaning everything below)");
      }
      ConstraintMode mode = p.hierarchy() == Hierarchy.CODE ? (l.mode() == null ? ConstraintMode.INCLUSIVE : l.mode()) : null;
      return p.hierarchy() == Hierarchy.SYNC_OBJECTS || p.hierarchy() == Hierarchy.IO ? object(p) : new Lit(p.hierarchy(), mode, p);
    }

    /**
     * A /SyncObjects or /IO path as a filter: a group ({@code monitors}, {@code locks}, {@code file},
     * {@code socket}) or one object in it. JFR's blocking events name the monitor's or lock's class, not the
     * instance, so /SyncObjects goes no deeper than the class.
     */
    static Lit object(ResourcePath p) {
      if (p.depth() > 2) {
        throw new MetricException(p.hierarchy() == Hierarchy.SYNC_OBJECTS
            ? "the agent tells monitors and locks apart by class (JFR's events name the class, not the instance), so "
                + p + " cannot be measured; use its class " + p.parent()
            : "an /IO filter names a group (file, socket) and one file or socket in it, not " + p);
      }
      return new Lit(p.hierarchy(), null, p);
    }

    /** The filter text: {@code inclusive:/Code/…} or {@code /Threads/…}. */
    String text() {
      return mode == null ? path.toString() : mode.word() + ":" + path;
    }
  }

  static Map<Set<Lit>, Integer> one() {
    Map<Set<Lit>, Integer> p = new LinkedHashMap<>();
    p.put(Set.of(), 1);
    return p;
  }

  static Map<Set<Lit>, Integer> expand(Ast.Cond c) {
    if (c instanceof Ast.Literal l) {
      Lit lit = Lit.of(l);
      Map<Set<Lit>, Integer> p = new LinkedHashMap<>();
      p.put(lit.path().isRoot() ? Set.of() : Set.of(lit), 1);
      return p;
    }
    if (c instanceof Ast.Not n) {
      return add(one(), expand(n.part()), -1);
    }
    List<Ast.Cond> parts = c instanceof Ast.And a ? a.parts() : ((Ast.Or) c).parts();
    Map<Set<Lit>, Integer> acc = expand(parts.get(0));
    for (Ast.Cond part : parts.subList(1, parts.size())) {
      Map<Set<Lit>, Integer> next = expand(part);
      acc = c instanceof Ast.And ? times(acc, next) : add(add(acc, next, 1), times(acc, next), -1);
    }
    return acc;
  }

  static Map<Set<Lit>, Integer> times(Map<Set<Lit>, Integer> a, Map<Set<Lit>, Integer> b) {
    Map<Set<Lit>, Integer> p = new LinkedHashMap<>();
    a.forEach((ma, ca) -> b.forEach((mb, cb) -> {
      Set<Lit> m = new HashSet<>(ma);
      m.addAll(mb);
      p.merge(Set.copyOf(m), ca * cb, Integer::sum);
    }));
    return bounded(p);
  }

  private static Map<Set<Lit>, Integer> add(Map<Set<Lit>, Integer> a, Map<Set<Lit>, Integer> b, int sign) {
    Map<Set<Lit>, Integer> p = new LinkedHashMap<>(a);
    b.forEach((m, c) -> p.merge(m, sign * c, Integer::sum));
    return bounded(p);
  }

  private static Map<Set<Lit>, Integer> bounded(Map<Set<Lit>, Integer> p) {
    p.values().removeIf(c -> c == 0);
    if (p.size() > MAX_TERMS) {
      throw new MetricException("the constraint expands to more than " + MAX_TERMS + " watched sources; simplify it");
    }
    return p;
  }

  /** The polynomial's terms as merged filters (one per hierarchy) with their coefficients; empty terms dropped. */
  static Map<Map<Hierarchy, Lit>, Integer> terms(Map<Set<Lit>, Integer> poly) {
    Map<Map<Hierarchy, Lit>, Integer> terms = new LinkedHashMap<>();
    poly.forEach((monomial, coefficient) -> {
      Map<Hierarchy, Lit> merged = merge(monomial);
      if (merged != null) {
        terms.merge(merged, coefficient, Integer::sum);
      }
    });
    terms.values().removeIf(c -> c == 0);
    return terms;
  }

  private static Map<Hierarchy, Lit> merge(Set<Lit> monomial) {
    Map<Hierarchy, Lit> m = new EnumMap<>(Hierarchy.class);
    for (Lit lit : monomial.stream().sorted((x, y) -> x.text().compareTo(y.text())).toList()) {
      Lit before = m.get(lit.hierarchy());
      Lit both = before == null ? lit : both(before, lit);
      if (both == null) {
        return null;
      }
      m.put(lit.hierarchy(), both);
    }
    return m;
  }

  /** The one constraint equivalent to {@code a and b}; null when they can never hold together. */
  private static Lit both(Lit a, Lit b) {
    if (a.equals(b)) {
      return a;
    }
    boolean bInA = a.path().contains(b.path());
    boolean aInB = b.path().contains(a.path());
    if (a.mode() == b.mode()) {
      if (bInA || aInB) {
        return bInA ? b : a;
      }
      if (a.mode() != ConstraintMode.INCLUSIVE) {
        return null;
      }
    } else if (a.mode() == ConstraintMode.INCLUSIVE || b.mode() == ConstraintMode.INCLUSIVE) {
      Lit inclusive = a.mode() == ConstraintMode.INCLUSIVE ? a : b;
      Lit other = inclusive == a ? b : a;
      if (inclusive.path().contains(other.path())) {
        return other;
      }
    }
    throw new MetricException("'" + a.text() + " and " + b.text() + "' needs two /Code filters on one event; a watched source takes one");
  }

  private Conditions() {}
}
