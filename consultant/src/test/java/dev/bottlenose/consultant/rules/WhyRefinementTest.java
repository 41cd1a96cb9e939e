package dev.bottlenose.consultant.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.Axis;
import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import org.junit.jupiter.api.Test;

class WhyRefinementTest {
  private static final RuleBook RULES = RuleBook.of("promising.drl", "why-refinement.drl");
  private final RuleSession session = RULES.newSession();

  WhyRefinementTest() {
    HypothesisCatalog.builtIn().forEach(session::insert);
  }

  @Test
  void theVirtualRootProposesTheTopLevelHypothesesAtOnce() {
    session.put(new NodeFact(0, -1, "top", Focus.WHOLE_PROGRAM, NodeState.TESTING, null, true));

    assertThat(session.fire()).isEqualTo(4);
    assertThat(session.refinements()).extracting(Refinement::hypothesisId)
        .containsExactlyInAnyOrder("cpu_bound", "sync_wait", "io_wait", "memory_pressure");
    assertThat(session.refinements()).allMatch(r -> r.axis() == Axis.WHY && r.parentId() == 0 && r.focus().equals(Focus.WHOLE_PROGRAM));
  }

  @Test
  void aTrueCpuBoundNodeProposesTheVmCostsAndRetractsThemWhenItTurnsFalse() {
    Focus focus = Focus.parse("</Code/com.acme>");
    session.put(new NodeFact(3, 0, "cpu_bound", focus, NodeState.TESTING, null, false));
    assertThat(session.fire()).isZero();

    session.put(new NodeFact(3, 0, "cpu_bound", focus, NodeState.TRUE, null, false));
    session.fire();
    assertThat(session.refinements()).extracting(Refinement::hypothesisId).containsExactlyInAnyOrder(
        "method_call_overhead", "object_creation_overhead", "interpreted_time", "jit_compile_time", "class_load_time");
    assertThat(session.refinements()).allMatch(r -> r.focus().equals(focus) && r.reason().equals("cpu_bound is true"));

    session.put(new NodeFact(3, 0, "cpu_bound", focus, NodeState.FALSE, null, false));
    assertThat(session.fire()).isZero();
    assertThat(session.refinements()).isEmpty();
  }

  @Test
  void theCountOfRefinementChangesMovesExactlyWhenTheRulesProposeOrRetract() {
    Focus focus = Focus.parse("</Code/com.acme>");
    long before = session.refinementChanges();
    session.put(new NodeFact(3, 0, "cpu_bound", focus, NodeState.TESTING, null, false));
    session.fire();
    assertThat(session.refinementChanges()).isEqualTo(before);

    session.put(new NodeFact(3, 0, "cpu_bound", focus, NodeState.TRUE, null, false));
    session.fire();
    long proposed = session.refinementChanges();
    assertThat(proposed).isEqualTo(before + session.refinements().size()).isGreaterThan(before);

    session.put(new NodeFact(3, 0, "cpu_bound", focus, NodeState.TRUE, null, false));
    session.fire();
    assertThat(session.refinementChanges()).as("the same node again: the same refinements").isEqualTo(proposed);

    session.put(new NodeFact(3, 0, "cpu_bound", focus, NodeState.FALSE, null, false));
    session.fire();
    assertThat(session.refinements()).isEmpty();
    assertThat(session.refinementChanges()).isEqualTo(proposed + (proposed - before));
  }

  @Test
  void aFalseOrUntestedNodeOrAWhereNodeProposesNothing() {
    session.put(new NodeFact(1, 0, "io_wait", Focus.WHOLE_PROGRAM, NodeState.FALSE, null, false));
    session.put(new NodeFact(2, 0, "sync_wait", Focus.WHOLE_PROGRAM, NodeState.UNTESTED, null, false));
    session.put(new NodeFact(4, 3, "cpu_bound", Focus.parse("</Code/com.acme>"), NodeState.TRUE, dev.bottlenose.model.Hierarchy.CODE, false));

    session.fire();
    assertThat(session.refinements()).isEmpty();
  }

  @Test
  void aProbeOnlyHypothesisThatCouldNotBeMeasuredInAPackageIsAskedInTheClassWhereItsParentIsTrue() {
    session.insert(new CodeOnly("method_call_overhead"));
    session.insert(new CodeOnly("object_creation_overhead"));
    Hierarchy code = Hierarchy.CODE;
    Focus pkg = Focus.parse("</Code/com.acme>");
    Focus cls = Focus.parse("</Code/com.acme/Cache>");
    session.put(new NodeFact(4, 1, "cpu_bound", pkg, NodeState.TRUE, code, false));
    session.put(new NodeFact(5, 4, "cpu_bound", cls, NodeState.TRUE, code, false));
    session.fire();
    assertThat(session.refinements()).extracting(Refinement::hypothesisId, Refinement::focus).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple("method_call_overhead", pkg), org.assertj.core.groups.Tuple.tuple("object_creation_overhead", pkg));

    session.put(new NodeFact(6, 4, "object_creation_overhead", pkg, NodeState.UNKNOWN, null, false));
    session.put(new NodeFact(7, 4, "method_call_overhead", pkg, NodeState.TESTING, null, false));
    session.fire();

    assertThat(session.refinements()).filteredOn(r -> r.parentId() == 5).singleElement().satisfies(r -> {
      assertThat(r.hypothesisId()).isEqualTo("object_creation_overhead");
      assertThat(r.focus()).isEqualTo(cls);
      assertThat(r.reason()).isEqualTo("cpu_bound is true in /Code/com.acme/Cache and object_creation_overhead could not"
          + " be measured in /Code/com.acme");
    });
  }
}
