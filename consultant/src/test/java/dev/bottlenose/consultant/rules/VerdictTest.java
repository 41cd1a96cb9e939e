package dev.bottlenose.consultant.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.MeasurementFailure;
import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.model.Focus;
import org.junit.jupiter.api.Test;

class VerdictTest {
  private static final RuleBook RULES = RuleBook.of("verdict.drl");
  private final RuleSession session = RULES.newSession();

  VerdictTest() {
    session.insert(new Timing(6, 20, 3));
  }

  @Test
  void sixSecondsOfPassingEvidenceMakeATrueVerdictThatGoesWhenTheGuessFlips() {
    session.put(new Evidence(1, Guess.PASSES, 0.45, 0.30, 5.0, 6.0, 5));
    assertThat(session.fire()).isZero();

    session.put(new Evidence(1, Guess.PASSES, 0.45, 0.30, 6.0, 7.0, 6));
    assertThat(session.fire()).isEqualTo(1);
    assertThat(session.verdicts()).extracting(Verdict::state, Verdict::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(NodeState.TRUE, "0.4500 passes threshold 0.3000 for 6.0 s"));
    assertThat(session.verdicts().get(0).evidence().value()).isEqualTo(0.45);

    session.put(new Evidence(1, Guess.FAILS, 0.20, 0.30, 1.0, 8.0, 7));
    assertThat(session.fire()).isZero();
    assertThat(session.verdicts()).isEmpty();
  }

  @Test
  void clearPassingEvidenceIsTrueAfterTheClearTimeButClearFailingEvidenceWaitsTheSufficientTime() {
    RuleSession early = RULES.newSession();
    early.insert(new Timing(6, 20, 3, 3));
    early.put(new Evidence(1, Guess.PASSES, 0.83, 0.30, 2.0, 3.0, 2, true));
    early.put(new Evidence(2, Guess.PASSES, 0.36, 0.30, 3.0, 4.0, 3, false));
    early.put(new Evidence(3, Guess.FAILS, 0.0, 0.30, 3.0, 4.0, 3, true));
    assertThat(early.fire()).isZero();

    early.put(new Evidence(1, Guess.PASSES, 0.83, 0.30, 3.0, 4.0, 3, true));
    early.put(new Evidence(2, Guess.PASSES, 0.36, 0.30, 4.0, 5.0, 4, false));
    early.put(new Evidence(3, Guess.FAILS, 0.0, 0.30, 4.0, 5.0, 4, true));
    assertThat(early.fire()).isEqualTo(1);
    assertThat(early.verdicts()).extracting(Verdict::state, Verdict::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(NodeState.TRUE, "0.8300 passes threshold 0.3000 clearly in 3.0 s"));
  }

  @Test
  void evidenceWhoseValueIsNotOnItsVerdictsSideDecidesNothingAndEndsUnknownAtTheTimeout() {
    session.put(new Evidence(1, Guess.PASSES, 0.2956, 0.30, 8.0, 9.0, 8, false, false));
    session.put(new Evidence(2, Guess.FAILS, 0.31, 0.30, 8.0, 9.0, 8, false, false));
    assertThat(session.fire()).isZero();

    session.put(new Evidence(1, Guess.PASSES, 0.2956, 0.30, 19.0, 20.0, 19, false, false));
    session.put(new Evidence(2, Guess.FAILS, 0.31, 0.30, 19.0, 20.0, 19, false, false));
    session.fire();
    assertThat(session.verdicts()).extracting(Verdict::state).containsExactly(NodeState.UNKNOWN, NodeState.UNKNOWN);
  }

  @Test
  void failingEvidenceMakesAFalseVerdict() {
    session.put(new Evidence(2, Guess.FAILS, 0.01, 0.20, 6.5, 7.5, 7));

    assertThat(session.fire()).isEqualTo(1);
    assertThat(session.verdicts()).extracting(Verdict::state).containsExactly(NodeState.FALSE);
  }

  @Test
  void noDataOrUnsettledEvidenceBecomeUnknownAtTheDecisionTimeout() {
    session.put(new Evidence(3, Guess.NONE, Double.NaN, 0.20, 0, 19.9, 0));
    session.put(new Evidence(4, Guess.PASSES, 0.21, 0.20, 2.0, 19.9, 19));
    assertThat(session.fire()).isZero();

    session.put(new Evidence(3, Guess.NONE, Double.NaN, 0.20, 0, 20.0, 0));
    session.put(new Evidence(4, Guess.PASSES, 0.21, 0.20, 2.0, 20.0, 20));
    assertThat(session.fire()).isEqualTo(2);
    assertThat(session.verdicts()).extracting(Verdict::nodeId, Verdict::state).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple(3, NodeState.UNKNOWN), org.assertj.core.groups.Tuple.tuple(4, NodeState.UNKNOWN));
    assertThat(session.verdicts()).extracting(Verdict::reason).allMatch(r -> r.startsWith("insufficient data"));
  }

  @Test
  void anUnavailableMetricIsUnknownAndAnUnknownFocusIsPruned() {
    session.put(new Unavailable(5, MeasurementFailure.Kind.METRIC_UNAVAILABLE, "metric gc_time unavailable: no JFR"));
    session.put(new Unavailable(6, MeasurementFailure.Kind.FOCUS_UNKNOWN, "no such method /Code/a/B/c()V"));

    assertThat(session.fire()).isEqualTo(2);
    assertThat(session.verdicts()).containsExactlyInAnyOrder(
        new Verdict(5, NodeState.UNKNOWN, "metric gc_time unavailable: no JFR"),
        new Verdict(6, NodeState.STOPPED, "pruned: no such method /Code/a/B/c()V"));

    session.removeUnavailable(5);
    session.fire();
    assertThat(session.verdicts()).extracting(Verdict::nodeId).containsExactly(6);
  }

  @Test
  void theVirtualRootFollowsItsChildren() {
    session.put(new NodeFact(0, -1, "top", Focus.WHOLE_PROGRAM, NodeState.TESTING, null, true));
    session.put(new NodeFact(1, 0, "cpu_bound", Focus.WHOLE_PROGRAM, NodeState.TESTING, null, false));
    session.put(new NodeFact(2, 0, "io_wait", Focus.WHOLE_PROGRAM, NodeState.FALSE, null, false));
    assertThat(session.fire()).isZero();

    session.put(new NodeFact(1, 0, "cpu_bound", Focus.WHOLE_PROGRAM, NodeState.TRUE, null, false));
    assertThat(session.fire()).isEqualTo(1);
    assertThat(session.verdicts()).extracting(Verdict::state).containsExactly(NodeState.TRUE);

    session.put(new NodeFact(1, 0, "cpu_bound", Focus.WHOLE_PROGRAM, NodeState.FALSE, null, false));
    assertThat(session.fire()).isEqualTo(1);
    assertThat(session.verdicts()).extracting(Verdict::state).containsExactly(NodeState.FALSE);

    session.put(new NodeFact(2, 0, "io_wait", Focus.WHOLE_PROGRAM, NodeState.UNKNOWN, null, false));
    assertThat(session.fire()).isEqualTo(1);
    assertThat(session.verdicts()).extracting(Verdict::state).containsExactly(NodeState.UNKNOWN);
  }
}
