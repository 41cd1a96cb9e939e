package dev.bottlenose.consultant.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.Axis;
import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.ResourceChild;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import org.junit.jupiter.api.Test;

class WhereRefinementTest {
  private static final ResourcePath CODE = Hierarchy.CODE.root();
  private static final ResourcePath ACME = ResourcePath.parse("/Code/com.acme");
  private static final ResourcePath HOT = ResourcePath.parse("/Code/com.acme/Hot");
  private static final ResourcePath SPIN = ResourcePath.parse("/Code/com.acme/Hot/spin()V");
  private static final ResourcePath MAIN_THREAD = ResourcePath.parse("/Threads/main");
  private static final ResourcePath LOCK = ResourcePath.parse("/SyncObjects/com.acme.Cache");

  private static final RuleBook RULES = RuleBook.of("promising.drl", "where-refinement.drl");
  private final RuleSession session = RULES.newSession();

  WhereRefinementTest() {
    HypothesisCatalog.builtIn().forEach(session::insert);
    session.add(new ResourceChild(CODE, ACME, ResourceChild.CONTAINS));
    session.add(new ResourceChild(ACME, HOT, ResourceChild.CONTAINS));
    session.add(new ResourceChild(HOT, SPIN, ResourceChild.CONTAINS));
    session.add(new ResourceChild(Hierarchy.THREADS.root(), MAIN_THREAD, ResourceChild.CONTAINS));
    session.add(new ResourceChild(Hierarchy.SYNC_OBJECTS.root(), LOCK, ResourceChild.CONTAINS));
  }

  @Test
  void aTrueWhyNodeGoesWideAlongTheHierarchiesItsHypothesisAllows() {
    session.put(new NodeFact(1, 0, "cpu_bound", Focus.WHOLE_PROGRAM, NodeState.TRUE, null, false));

    session.fire();
    assertThat(session.refinements()).containsExactlyInAnyOrder(
        new Refinement(1, "cpu_bound", Focus.of(ACME), Axis.WHERE, Hierarchy.CODE, "contains"),
        new Refinement(1, "cpu_bound", Focus.of(MAIN_THREAD), Axis.WHERE, Hierarchy.THREADS, "contains"));
  }

  @Test
  void syncWaitingRefinesToTheLockButCpuBoundNever() {
    session.put(new NodeFact(2, 0, "sync_wait", Focus.WHOLE_PROGRAM, NodeState.TRUE, null, false));

    session.fire();
    assertThat(session.refinements()).extracting(Refinement::focus)
        .containsExactlyInAnyOrder(Focus.of(LOCK), Focus.of(ACME), Focus.of(MAIN_THREAD));
  }

  @Test
  void aWhereNodeStaysNarrowAndFollowsCallsDownToTheCallee() {
    ResourcePath callee = ResourcePath.parse("/Code/com.acme/Util/mix(I)I");
    session.add(new ResourceChild(SPIN, callee, ResourceChild.CALLS));
    session.put(new NodeFact(5, 1, "cpu_bound", Focus.of(SPIN), NodeState.TRUE, Hierarchy.CODE, false));

    session.fire();
    assertThat(session.refinements()).containsExactly(
        new Refinement(5, "cpu_bound", Focus.of(callee), Axis.WHERE, Hierarchy.CODE, "calls"));
  }

  @Test
  void aLeafMethodMovesOnToTheThreadsAndBackWhenACalleeAppears() {
    session.put(new NodeFact(5, 1, "cpu_bound", Focus.of(SPIN), NodeState.TRUE, Hierarchy.CODE, false));

    session.fire();
    assertThat(session.refinements()).containsExactly(
        new Refinement(5, "cpu_bound", Focus.of(SPIN, MAIN_THREAD), Axis.WHERE, Hierarchy.THREADS, "contains"));

    ResourceChild call = new ResourceChild(SPIN, ResourcePath.parse("/Code/com.acme/Util/mix(I)I"), ResourceChild.CALLS);
    session.add(call);
    session.fire();
    assertThat(session.refinements()).extracting(Refinement::along).containsExactly(Hierarchy.CODE);

    session.remove(call);
    session.fire();
    assertThat(session.refinements()).extracting(Refinement::along).containsExactly(Hierarchy.THREADS);
  }

  @Test
  void whenEveryChildAlongItsOwnHierarchyIsFalseTheNodeMovesOnEvenIfTheChildWasReachedFirstFromElsewhere() {
    session.put(new NodeFact(4, 1, "cpu_bound", Focus.of(HOT), NodeState.TRUE, Hierarchy.CODE, false));
    session.put(new NodeFact(6, 9, "cpu_bound", Focus.of(SPIN), NodeState.TESTING, Hierarchy.CODE, false));
    session.add(new ChildEdge(4, 6, Hierarchy.CODE));
    session.fire();
    assertThat(session.refinements()).extracting(Refinement::along).containsExactly(Hierarchy.CODE);

    session.put(new NodeFact(6, 9, "cpu_bound", Focus.of(SPIN), NodeState.FALSE, Hierarchy.CODE, false));
    session.fire();
    assertThat(session.refinements()).extracting(Refinement::along).containsExactlyInAnyOrder(Hierarchy.CODE, Hierarchy.THREADS);
  }

  @Test
  void nothingIsRefinedOnceTheNodeIsNoLongerTrue() {
    session.put(new NodeFact(1, 0, "cpu_bound", Focus.WHOLE_PROGRAM, NodeState.TRUE, null, false));
    session.fire();
    session.put(new NodeFact(1, 0, "cpu_bound", Focus.WHOLE_PROGRAM, NodeState.FALSE, null, false));

    assertThat(session.fire()).isZero();
    assertThat(session.refinements()).isEmpty();
  }

  @Test
  void deepStartJumpsFromATrueWhyNodeToAHintedMethodAndNotFromWhereNodes() {
    session.add(new Hint(SPIN, 0.8, "stack samples"));
    session.put(new NodeFact(1, 0, "cpu_bound", Focus.WHOLE_PROGRAM, NodeState.TRUE, null, false));
    session.put(new NodeFact(2, 0, "io_wait", Focus.WHOLE_PROGRAM, NodeState.TRUE, null, false));
    session.put(new NodeFact(5, 1, "cpu_bound", Focus.of(SPIN), NodeState.TRUE, Hierarchy.CODE, false));

    session.fire();

    assertThat(session.refinements()).filteredOn(r -> r.reason().startsWith("deep start")).containsExactlyInAnyOrder(
        new Refinement(1, "cpu_bound", Focus.of(SPIN), Axis.WHERE, Hierarchy.CODE, "deep start: stack samples"),
        new Refinement(2, "io_wait", Focus.of(SPIN), Axis.WHERE, Hierarchy.CODE, "deep start: stack samples"));
  }

  @Test
  void aHintForOneHypothesisDeepStartsOnlyItsNodes() {
    session.add(new Hint(SPIN, 0.8, "I/O samples", "io_wait"));
    session.put(new NodeFact(1, 0, "cpu_bound", Focus.WHOLE_PROGRAM, NodeState.TRUE, null, false));
    session.put(new NodeFact(2, 0, "io_wait", Focus.WHOLE_PROGRAM, NodeState.TRUE, null, false));

    session.fire();

    assertThat(session.refinements()).filteredOn(r -> r.reason().startsWith("deep start")).containsExactly(
        new Refinement(2, "io_wait", Focus.of(SPIN), Axis.WHERE, Hierarchy.CODE, "deep start: I/O samples"));
  }

  @Test
  void bottlenosesOwnCodeInTheTargetIsNeverARefinementButTheTestWorkloadsAre() {
    ResourcePath agent = ResourcePath.parse("/Code/dev.bottlenose.agent");
    ResourcePath asm = ResourcePath.parse("/Code/dev.bottlenose.agent.shaded.asm.tree");
    ResourcePath probe = ResourcePath.parse("/Code/dev.bottlenose.probe/Probes/enter(J)V");
    ResourcePath workloads = ResourcePath.parse("/Code/dev.bottlenose.tests.workloads");
    session.add(new ResourceChild(CODE, agent, ResourceChild.CONTAINS));
    session.add(new ResourceChild(CODE, asm, ResourceChild.CONTAINS));
    session.add(new ResourceChild(CODE, ResourcePath.parse("/Code/dev.bottlenose.model"), ResourceChild.CONTAINS));
    session.add(new ResourceChild(CODE, ResourcePath.parse("/Code/dev.bottlenose.instrumentation"), ResourceChild.CONTAINS));
    session.add(new ResourceChild(CODE, workloads, ResourceChild.CONTAINS));
    session.add(new ResourceChild(SPIN, probe, ResourceChild.CALLS));
    session.add(new Hint(ResourcePath.parse("/Code/dev.bottlenose.agent/Sampler/run()V"), 0.9, "execution samples"));
    session.put(new NodeFact(1, 0, "cpu_bound", Focus.WHOLE_PROGRAM, NodeState.TRUE, null, false));
    session.put(new NodeFact(5, 1, "cpu_bound", Focus.of(SPIN), NodeState.TRUE, Hierarchy.CODE, false));

    session.fire();

    assertThat(session.refinements()).extracting(r -> r.focus().get(Hierarchy.CODE)).containsOnly(ACME, workloads, CODE, SPIN);
    assertThat(session.refinements()).filteredOn(r -> r.parentId() == 5).as("a method calling only a probe moves on")
        .extracting(Refinement::along).containsExactly(Hierarchy.THREADS);
  }

  @Test
  void aNodeStillTestedIsRefinedOnceItsEvidenceHasPassedLongEnoughAndNoLongerWhenItTurns() {
    session.insert(new Timing(6, 20, 3));
    session.put(new NodeFact(1, 0, "cpu_bound", Focus.WHOLE_PROGRAM, NodeState.TESTING, null, false));
    session.put(new Evidence(1, Guess.PASSES, 0.6, 0.3, 2.5, 3.5, 3));
    session.fire();
    assertThat(session.refinements()).isEmpty();

    session.put(new Evidence(1, Guess.PASSES, 0.6, 0.3, 3.0, 4.0, 4));
    session.fire();
    assertThat(session.refinements()).extracting(Refinement::focus)
        .containsExactlyInAnyOrder(Focus.of(ACME), Focus.of(MAIN_THREAD));

    session.put(new Evidence(1, Guess.FAILS, 0.2, 0.3, 0.5, 4.5, 5));
    session.fire();
    assertThat(session.refinements()).isEmpty();
  }
}
