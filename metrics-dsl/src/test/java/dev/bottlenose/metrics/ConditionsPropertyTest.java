package dev.bottlenose.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The signed sum of the sources a condition compiles to counts an event exactly when the condition holds
 * for it: checked against direct evaluation on random stacks and threads.
 */
class ConditionsPropertyTest {
  private static final List<String> CODE = List.of("/Code/a", "/Code/a/A", "/Code/a/A/m", "/Code/a/B/n", "/Code/b/C/k");
  private static final List<String> METHODS = List.of("/Code/a/A/m", "/Code/a/A/m2", "/Code/a/B/n", "/Code/b/C/k");
  private static final List<String> THREADS = List.of("/Threads/p", "/Threads/p/t1", "/Threads/q/t2");

  record Sample(List<ResourcePath> stack, ResourcePath thread) {}

  @Property(tries = 400)
  void sourcesCountEachEventOnceWhenTheConditionHolds(@ForAll("conditions") Ast.Cond cond, @ForAll("samples") List<Sample> samples) {
    Map<Map<Hierarchy, Conditions.Lit>, Integer> terms;
    try {
      terms = Conditions.terms(Conditions.expand(cond));
    } catch (MetricException e) {
      Assume.that(false);
      return;
    }
    for (Sample s : samples) {
      int counted = 0;
      for (Map.Entry<Map<Hierarchy, Conditions.Lit>, Integer> t : terms.entrySet()) {
        boolean match = t.getKey().values().stream().allMatch(l -> holds(l.hierarchy(), l.mode(), l.path(), s));
        counted += match ? t.getValue() : 0;
      }
      assertThat(counted).as("%s on %s", Render.cond(cond), s).isEqualTo(eval(cond, s) ? 1 : 0);
    }
  }

  private static boolean eval(Ast.Cond c, Sample s) {
    if (c instanceof Ast.Literal l) {
      return holds(l.pattern().hierarchy(), l.mode() == null && l.pattern().hierarchy() == Hierarchy.CODE ? ConstraintMode.INCLUSIVE : l.mode(), l.pattern(), s);
    }
    if (c instanceof Ast.Not n) {
      return !eval(n.part(), s);
    }
    if (c instanceof Ast.And a) {
      return a.parts().stream().allMatch(p -> eval(p, s));
    }
    return ((Ast.Or) c).parts().stream().anyMatch(p -> eval(p, s));
  }

  private static boolean holds(Hierarchy h, ConstraintMode mode, ResourcePath path, Sample s) {
    if (h == Hierarchy.THREADS) {
      return path.contains(s.thread());
    }
    switch (mode) {
      case EXCLUSIVE:
        return path.contains(s.stack().get(0));
      case CALLER:
        return s.stack().size() > 1 && path.contains(s.stack().get(1));
      default:
        return s.stack().stream().anyMatch(path::contains);
    }
  }

  @Provide
  Arbitrary<Ast.Cond> conditions() {
    Arbitrary<Ast.Cond> code = Combinators.combine(Arbitraries.of(ConstraintMode.values()), Arbitraries.of(CODE))
        .as((m, p) -> new Ast.Literal(m, ResourcePath.parse(p), 0));
    Arbitrary<Ast.Cond> thread = Arbitraries.of(THREADS).map(p -> new Ast.Literal(null, ResourcePath.parse(p), 0));
    Arbitrary<Ast.Cond> literal = Arbitraries.oneOf(code, code, thread);
    return Arbitraries.recursive(() -> literal, inner -> Arbitraries.oneOf(
        inner.map(Ast.Not::new),
        inner.list().ofMinSize(2).ofMaxSize(3).map(Ast.And::new),
        inner.list().ofMinSize(2).ofMaxSize(3).map(Ast.Or::new)), 0, 3);
  }

  @Provide
  Arbitrary<List<Sample>> samples() {
    Arbitrary<List<ResourcePath>> stack = Arbitraries.of(METHODS).map(ResourcePath::parse).list().ofMinSize(1).ofMaxSize(4);
    Arbitrary<ResourcePath> thread = Arbitraries.of("/Threads/p/t1", "/Threads/p/t3", "/Threads/q/t2").map(ResourcePath::parse);
    return Combinators.combine(stack, thread).as(Sample::new).list().ofMinSize(20).ofMaxSize(20);
  }
}
