package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BudgetSchedulerTest {
  private final BudgetScheduler scheduler = new BudgetScheduler(0.05, 1000, 10);

  @Test
  void admitsBestFirstWhilePredictedCostFitsAndTheRestWait() {
    scheduler.enqueue(1, "", 10, 0.02);
    scheduler.enqueue(2, "", 5, 0.02);
    scheduler.enqueue(3, "", 10, 0.02);

    assertThat(scheduler.admit()).containsExactly(2, 1);
    assertThat(scheduler.load()).isEqualTo(0.04, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(scheduler.isQueued(3)).isTrue();
    assertThat(scheduler.waitReason(3)).isEqualTo("waiting for budget: needs 0.0200 of 0.0500");
  }

  @Test
  void aCheaperNodeMayPassOneThatDoesNotFit() {
    scheduler.enqueue(1, "", 5, 0.04);
    scheduler.enqueue(2, "", 5, 0.03);
    scheduler.enqueue(3, "", 10, 0.01);

    assertThat(scheduler.admit()).containsExactly(1, 3);
  }

  @Test
  void waitingNodesStartWhenObservedCostFreesRoom() {
    scheduler.enqueue(1, "", 5, 0.03);
    scheduler.enqueue(2, "", 10, 0.03);
    assertThat(scheduler.admit()).containsExactly(1);

    scheduler.observe(1000, 0, Map.of(1, 0.01));
    assertThat(scheduler.admit()).containsExactly(2);
  }

  @Test
  void removingARunningNodeReleasesItsCostAtOnce() {
    scheduler.enqueue(1, "", 5, 0.04);
    scheduler.enqueue(2, "", 10, 0.04);
    scheduler.admit();

    assertThat(scheduler.remove(1)).isTrue();
    assertThat(scheduler.admit()).containsExactly(2);
  }

  @Test
  void aNodeCostingMoreThanTheWholeBudgetIsRejected() {
    scheduler.enqueue(1, "", 5, 0.06);

    assertThat(scheduler.admit()).isEmpty();
    assertThat(scheduler.takeRejected()).containsExactly(Map.entry(1, "predicted cost 0.0600 exceeds the whole budget 0.0500"));
    assertThat(scheduler.takeRejected()).isEmpty();
  }

  @Test
  void aCostSampleOverTheBudgetShedsTheLowestPriorityNodesUntilItFits() {
    runThreeAtPriorities5To12();
    assertThat(scheduler.shed(1000, Set.of())).isEmpty();

    scheduler.observe(1000, 0, Map.of(1, 0.03, 2, 0.03, 3, 0.03));
    assertThat(scheduler.shed(1000, Set.of())).containsExactly(3, 2);
    assertThat(scheduler.load()).isLessThanOrEqualTo(0.05);
    assertThat(scheduler.isQueued(3)).isTrue();
    assertThat(scheduler.waitReason(3)).startsWith("waiting for budget: needs 0.0300");
    assertThat(scheduler.admit()).isEmpty();
  }

  @Test
  void aNodeWhoseChildrenRunOnItsEvidenceIsShedOnlyAfterEveryOtherNode() {
    runThreeAtPriorities5To12();

    scheduler.observe(1000, 0, Map.of(1, 0.03, 2, 0.03, 3, 0.03));

    assertThat(scheduler.shed(1000, Set.of(3))).containsExactly(2, 1);
    assertThat(scheduler.isQueued(3)).isFalse();
  }

  @Test
  void aCostThatIsBackUnderTheBudgetWhenSheddingIsDecidedShedsNothing() {
    scheduler.enqueue(1, "", 5, 0.01);
    scheduler.admit();

    scheduler.observe(1000, 0, Map.of(1, 0.09));
    scheduler.observe(1000, 0, Map.of(1, 0.01));

    assertThat(scheduler.shed(1000, Set.of())).isEmpty();
  }

  @Test
  void afterAShedNothingStartsUntilTheNextCostSample() {
    scheduler.enqueue(1, "", 5, 0.04);
    scheduler.enqueue(2, "", 10, 0.01);
    scheduler.admit();
    scheduler.observe(1000, 0, Map.of(1, 0.08, 2, 0.001));
    scheduler.enqueue(3, "", 5, 0.001);

    assertThat(scheduler.shed(1000, Set.of())).containsExactly(2, 1);
    assertThat(scheduler.admit()).isEmpty();
    scheduler.observe(2000, 0, Map.of());
    assertThat(scheduler.admit()).containsExactly(3, 2);
    assertThat(scheduler.takeRejected()).containsExactly(Map.entry(1, "measured cost 0.0800 exceeds the whole budget 0.0500"));
  }

  @Test
  void predictionsAreScaledByHowMuchThePortUnderestimated() {
    scheduler.enqueue(1, "", 5, 0.01);
    scheduler.admit();
    scheduler.observe(1000, 0, Map.of(1, 0.02));
    scheduler.enqueue(2, "", 5, 0.02);
    scheduler.enqueue(3, "", 5, 0.01);

    assertThat(scheduler.calibration("")).isEqualTo(2.0);
    assertThat(scheduler.admit()).containsExactly(3);
    assertThat(scheduler.waitReason(2)).isEqualTo("waiting for budget: needs 0.0400 of 0.0500");
  }

  @Test
  void oneHypothesisUnderestimatedAThousandfoldDoesNotScaleTheOthers() {
    scheduler.enqueue(1, "method_call_overhead", 5, 0.00001);
    scheduler.enqueue(2, "jit_compile_time", 5, 0.0001);
    scheduler.admit();
    scheduler.observe(1000, 0, Map.of(1, 0.01, 2, 0.0001));
    scheduler.enqueue(3, "method_call_overhead", 5, 0.00004);
    scheduler.enqueue(4, "jit_compile_time", 5, 0.0001);

    assertThat(scheduler.calibration("method_call_overhead")).isCloseTo(1000.0, within(1e-6));
    assertThat(scheduler.calibration("jit_compile_time")).isEqualTo(1.0);
    assertThat(scheduler.calibration("cpu_bound")).as("not measured yet: the median of the others")
        .isCloseTo(500.5, within(1e-6));
    assertThat(scheduler.admit()).containsExactly(4);
    assertThat(scheduler.waitReason(3)).isEqualTo("waiting for budget: needs 0.0400 of 0.0500");
  }

  @Test
  void aNodeWithinAnObservedOneExpectsItsShareOfThatCostNotTheScaledPrediction() {
    scheduler.enqueue(1, "method_call_overhead", 5, 0.00004);
    scheduler.admit();
    scheduler.observe(1000, 0, Map.of(1, 0.04));
    scheduler.remove(1);
    scheduler.enqueueWithin(2, "method_call_overhead", 5, 0.00001, 1);
    scheduler.enqueueWithin(3, "method_call_overhead", 5, 0.00002, 1);
    scheduler.enqueue(4, "method_call_overhead", 5, 0.00003);

    assertThat(scheduler.calibration("method_call_overhead")).isCloseTo(1000.0, within(1e-6));
    assertThat(scheduler.admit()).as("a quarter and a half of the enclosing node's 0.04").containsExactly(2, 3);
    assertThat(scheduler.load()).isCloseTo(0.03, within(1e-12));
    assertThat(scheduler.waitReason(4)).as("not within it: scaled by the kind's factor")
        .isEqualTo("waiting for budget: needs 0.0300 of 0.0500");
  }

  @Test
  void theOneTimeCostsOfProbesGoingInHoldBackNewNodesButShedNone() {
    runThreeAtPriorities5To12();
    scheduler.enqueue(4, "", 5, 0.01);
    scheduler.observe(1000, 0.10, Map.of(1, 0.01, 2, 0.01, 3, 0.01));

    assertThat(scheduler.shed(3000, Set.of())).as("side cost over the budget").isEmpty();
    assertThat(scheduler.admit()).isEmpty();
    scheduler.observe(4000, 0, Map.of(1, 0.01, 2, 0.01, 3, 0.01));
    scheduler.recompiling(0.03);
    assertThat(scheduler.shed(6000, Set.of())).as("recompiling").isEmpty();
    assertThat(scheduler.admit()).isEmpty();
    assertThat(scheduler.waitReason(4)).isEqualTo("waiting for budget: needs 0.0100 of 0.0500; the JIT's recompiling uses 0.0300");
    scheduler.recompiling(0.005);
    assertThat(scheduler.admit()).containsExactly(4);
  }

  @Test
  void theBudgetMustBeAFractionOfTheCpu() {
    assertThatThrownBy(() -> new BudgetScheduler(5, 1000, 10))
        .hasMessage("budget must be a fraction of the target's CPU in (0, 1), is 5.0");
  }

  /** Nodes 1, 2 and 3 at priorities 5, 10 and 12, each predicted at 0.01, all running. */
  private void runThreeAtPriorities5To12() {
    scheduler.enqueue(1, "", 5, 0.01);
    scheduler.enqueue(2, "", 10, 0.01);
    scheduler.enqueue(3, "", 12, 0.01);
    scheduler.admit();
  }
}
