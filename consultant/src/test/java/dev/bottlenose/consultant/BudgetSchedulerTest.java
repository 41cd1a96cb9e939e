package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BudgetSchedulerTest {
  private final BudgetScheduler scheduler = new BudgetScheduler(0.05, 1000, 10, 5);

  @Test
  void admitsBestFirstWhilePredictedCostFitsAndTheRestWait() {
    scheduler.enqueue(1, "", 10, 0.02);
    scheduler.enqueue(2, "", 5, 0.02);
    scheduler.enqueue(3, "", 10, 0.02);

    assertThat(scheduler.admit(0)).containsExactly(2, 1);
    assertThat(scheduler.load()).isEqualTo(0.04, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(scheduler.isQueued(3)).isTrue();
    assertThat(scheduler.waitReason(3)).isEqualTo("waiting for budget: needs 0.0200 of 0.0500");
  }

  @Test
  void whatBeingAttachedCostsAtRestComesOffTheBudgetBeforeTheNodesShareIt() {
    scheduler.attached(0.02);
    scheduler.enqueue(1, "", 5, 0.02);
    scheduler.enqueue(2, "", 10, 0.02);

    assertThat(scheduler.admit(0)).containsExactly(1);
    assertThat(scheduler.waitReason(2)).isEqualTo("waiting for budget: needs 0.0200 of the 0.0300 left"
        + " (budget 0.0500, less 0.0200 for being attached while nothing is measured)");

    scheduler.attached(0.04);
    scheduler.observe(1000, 0, Map.of(1, 0.03));
    assertThat(scheduler.shed(1000, Set.of())).as("0.03 alone over the 0.025 left (half the budget at least): the"
        + " rest of a burst, not shed").isEmpty();
    assertThat(scheduler.inBurst(1)).isTrue();

    scheduler.attached(Double.NaN);
    assertThat(scheduler.room()).as("an unknown cost keeps the last one").isCloseTo(0.025, within(1e-12));

    scheduler.attached(0.06);
    assertThat(scheduler.room()).as("being attached over the whole budget leaves the search half of it")
        .isCloseTo(0.025, within(1e-12));
  }

  @Test
  void aNodeShedForOneIntervalsSpikeComesBackAtWhatItUsuallyCosts() {
    scheduler.enqueue(1, "", 5, 0.001);
    scheduler.enqueue(2, "", 10, 0.001);
    assertThat(scheduler.admit(0)).containsExactly(1, 2);
    for (long t = 1000; t <= 6000; t += 1000) {
      scheduler.observe(t, 0, Map.of(1, 0.0, 2, 0.0));
    }
    // the agent lists a package's classes for the next step: its CPU is charged to the two nodes that run
    scheduler.observe(7000, 0, Map.of(1, 0.04, 2, 0.04));
    assertThat(scheduler.shed(8000, Set.of())).as("0.08 over the budget for an interval").containsExactly(2);

    assertThat(scheduler.admit(8000)).as("not in the step that shed it").isEmpty();
    for (long t = 9000; t <= 11_000; t += 1000) {
      scheduler.observe(t, 0, Map.of(1, 0.02));
    }

    assertThat(scheduler.admit(11_000)).as("beside 0.02, once the overspent interval is repaid: at the median of what it"
        + " cost, 0, not that one interval's 0.04")
        .containsExactly(2);
  }

  @Test
  void beingAttachedOverTheBudgetStillLeavesHalfOfItForMeasuring() {
    BudgetScheduler scheduler = new BudgetScheduler(0.01, 1000, 64, 5);
    scheduler.attached(0.02);
    scheduler.enqueue(1, "sync_wait", 0, 0.004);
    scheduler.enqueue(2, "sync_wait", 0, 0.004);
    assertThat(scheduler.admit(0)).as("two nodes of 0.004 in the 0.005 left: the first").containsExactly(1);
    assertThat(scheduler.waitReason(2)).isEqualTo("waiting for budget: needs 0.0040 of the 0.0050 the search measures"
        + " with (being attached costs 0.0200 at rest, more than the budget 0.0100 leaves room for)");
  }

  @Test
  void aCheaperNodeMayPassOneThatDoesNotFit() {
    scheduler.enqueue(1, "", 5, 0.04);
    scheduler.enqueue(2, "", 5, 0.03);
    scheduler.enqueue(3, "", 10, 0.01);

    assertThat(scheduler.admit(0)).containsExactly(1, 3);
  }

  @Test
  void waitingNodesStartWhenObservedCostFreesRoom() {
    scheduler.enqueue(1, "", 5, 0.03);
    scheduler.enqueue(2, "", 10, 0.03);
    assertThat(scheduler.admit(0)).containsExactly(1);

    scheduler.observe(1000, 0, Map.of(1, 0.01));
    assertThat(scheduler.admit(0)).containsExactly(2);
  }

  @Test
  void removingARunningNodeReleasesItsCostAtOnce() {
    scheduler.enqueue(1, "", 5, 0.04);
    scheduler.enqueue(2, "", 10, 0.04);
    scheduler.admit(0);

    assertThat(scheduler.remove(1)).isTrue();
    assertThat(scheduler.admit(0)).containsExactly(2);
  }

  @Test
  void aNodeCostingMoreThanTheBudgetIsMeasuredInBurstsPaidFromTheBucketAndRestsBetweenThem() {
    scheduler.enqueue(1, "", 5, 0.10);

    assertThat(scheduler.admit(0)).as("a 4 s burst needs 4 × (0.10 − 0.05) = 0.20 of the full 0.25").containsExactly(1);
    assertThat(scheduler.inBurst(1)).isTrue();
    for (long t = 1000; t <= 3000; t += 1000) {
      scheduler.observe(t, 0, Map.of(1, 0.10));
      assertThat(scheduler.shed(t, Set.of())).as("the burst's cost over the room is the bucket's, not shed").isEmpty();
      assertThat(scheduler.endBursts(t)).isEmpty();
    }
    scheduler.observe(4000, 0, Map.of(1, 0.10));
    assertThat(scheduler.endBursts(4000)).containsExactly(1);
    assertThat(scheduler.credit()).isCloseTo(0.05, within(1e-9));
    assertThat(scheduler.load()).isZero();
    assertThat(scheduler.admit(4000)).isEmpty();
    assertThat(scheduler.waitReason(1)).isEqualTo("measured in bursts (1 so far): measuring it costs 0.1000, more"
        + " than the 0.0500 the budget leaves; the next 4 s burst needs 0.2000 of the budget saved up, 0.0500 now"
        + " (about 3 s more)");

    for (long t = 5000; t <= 7000; t += 1000) {
      scheduler.observe(t, 0, Map.of());
    }
    assertThat(scheduler.admit(7000)).as("0.05 + 3 s × 0.05").containsExactly(1);
    assertThat(scheduler.takeRejected()).isEmpty();
  }

  @Test
  void aBurstWhoseNodeIsAboutToBeDecidedGoesOnAtMostTwoIntervalsPayingForThem() {
    burstOfFourSecondsUpTo(4000, id -> true);
    assertThat(scheduler.endBursts(4000, id -> true)).as("its time is up, its data about to decide it").isEmpty();
    assertThat(scheduler.inBurst(1)).isTrue();
    scheduler.observe(5000, 0, Map.of(1, 0.10));
    assertThat(scheduler.endBursts(5000, id -> true)).as("the second interval more").isEmpty();
    scheduler.observe(6000, 0, Map.of(1, 0.10));
    assertThat(scheduler.endBursts(6000, id -> true)).as("no third").containsExactly(1);
    assertThat(scheduler.credit()).as("0.25 + 6 s × 0.05 − 6 s × 0.10").isCloseTo(-0.05, within(1e-9));
    assertThat(scheduler.admit(6000)).as("nothing starts until the bucket is repaid").isEmpty();
  }

  @Test
  void aBurstWhoseNodeIsNotAboutToBeDecidedEndsOnTime() {
    burstOfFourSecondsUpTo(4000, id -> false);
    assertThat(scheduler.endBursts(4000, id -> false)).containsExactly(1);
  }

  /** Node 1, costing 0.10 against the 0.05 room, in its 4 s burst, observed every second up to {@code millis}. */
  private void burstOfFourSecondsUpTo(long millis, java.util.function.IntPredicate aboutToDecide) {
    scheduler.enqueue(1, "", 5, 0.10);
    assertThat(scheduler.admit(0)).containsExactly(1);
    for (long t = 1000; t < millis; t += 1000) {
      scheduler.observe(t, 0, Map.of(1, 0.10));
      assertThat(scheduler.endBursts(t, aboutToDecide)).isEmpty();
    }
    scheduler.observe(millis, 0, Map.of(1, 0.10));
  }

  @Test
  void aBurstOfANodeThatInsertsProbesLastsOneIntervalMoreForTheCodeToBeCompiledAgain() {
    scheduler.enqueueWithin(1, "method_call_overhead", 5, 0.09, 0.01, -1);

    assertThat(scheduler.admit(0)).as("5 × 0.04 + 0.01 of the 0.25").containsExactly(1);
    assertThat(scheduler.insertsProbes(1)).isTrue();
    for (long t = 1000; t <= 4000; t += 1000) {
      scheduler.observe(t, 0, Map.of(1, 0.09));
      assertThat(scheduler.endBursts(t)).isEmpty();
    }
    scheduler.observe(5000, 0, Map.of(1, 0.09));
    assertThat(scheduler.endBursts(5000)).containsExactly(1);
    assertThat(scheduler.insertsProbes(1)).as("resting").isFalse();
  }

  @Test
  void aRunningNodeSeenToCostMoreThanTheBudgetBecomesTheBurstInsteadOfBeingShedIfTheBucketCanPay() {
    scheduler.enqueue(1, "", 5, 0.001);
    scheduler.enqueue(2, "", 10, 0.01);
    assertThat(scheduler.admit(0)).containsExactly(1, 2);
    scheduler.observe(1000, 0, Map.of(1, 0.08, 2, 0.01));

    assertThat(scheduler.shed(1000, Set.of())).as("0.08 alone is over the room: a burst for its last 3 s").isEmpty();
    assertThat(scheduler.inBurst(1)).isTrue();
    scheduler.observe(2000, 0, Map.of(1, 0.08, 2, 0.01));
    scheduler.observe(3000, 0, Map.of(1, 0.08, 2, 0.01));
    assertThat(scheduler.endBursts(3000)).isEmpty();
    scheduler.observe(4000, 0, Map.of(1, 0.08, 2, 0.01));
    assertThat(scheduler.endBursts(4000)).containsExactly(1);
    assertThat(scheduler.isQueued(1)).isTrue();
    assertThat(scheduler.load()).isCloseTo(0.01, within(1e-12));
  }

  @Test
  void whileABurstRunsOnlyNodesThatFitHalfTheRoomStartAndABurstThatCostsMoreThanExpectedEndsOnceItOverdrawsTheBucketByItsNeed() {
    scheduler.enqueue(1, "", 5, 0.01);
    scheduler.enqueue(2, "", 6, 0.10);
    assertThat(scheduler.admit(0)).containsExactly(1, 2);
    scheduler.enqueue(3, "", 7, 0.02);
    scheduler.enqueue(4, "", 7, 0.20);
    scheduler.observe(1000, 0, Map.of(1, 0.01, 2, 0.10));
    assertThat(scheduler.admit(1000)).as("0.01 + 0.02 is over half the room").isEmpty();
    assertThat(scheduler.waitReason(4)).isEqualTo("waiting: another node is being measured in a burst");
    assertThat(scheduler.endBursts(1000)).as("0.25 − 0.06 left").isEmpty();
    scheduler.remove(3);
    scheduler.enqueue(3, "", 7, 0.01);
    assertThat(scheduler.admit(1000)).as("0.19 held, 3 × 0.06 kept for the burst; 0.01 + 0.01 fits half the room")
        .containsExactly(3);
    scheduler.remove(3);
    scheduler.observe(2000, 0, Map.of(1, 0.01, 2, 0.30));

    assertThat(scheduler.credit()).isNegative();
    assertThat(scheduler.endBursts(2000)).as("overdrawn by 0.07, less than the 4 × 0.06 the burst was planned to need")
        .isEmpty();
    scheduler.observe(3000, 0, Map.of(1, 0.01, 2, 0.30));
    assertThat(scheduler.endBursts(3000)).as("overdrawn by 0.33").containsExactly(2);
    assertThat(scheduler.shed(3000, Set.of())).isEmpty();
    assertThat(scheduler.admit(3000)).as("overdrawn").isEmpty();
    for (long t = 4000; t <= 12_000; t += 1000) {
      scheduler.observe(t, 0, Map.of(1, 0.01));
    }
    scheduler.enqueue(3, "", 7, 0.01);
    assertThat(scheduler.admit(12_000)).as("3 in half the room while 2 waits for its next burst").containsExactly(3);
    assertThat(scheduler.waitReason(2)).startsWith("measured in bursts (1 so far): measuring it costs 0.3000");
  }

  @Test
  void aStartThatNeedsMoreThanTheBucketHoldsIsSavedUpForWhileLaterNodesUseHalfTheRoom() {
    scheduler.enqueue(1, "", 5, 0.20);
    scheduler.enqueue(2, "", 10, 0.03);
    scheduler.enqueue(3, "", 10, 0.02);

    assertThat(scheduler.admit(0)).as("4 × 0.15 = 0.60 needed; 0.02 fits in half the room").containsExactly(3);
    for (long t = 1000; t <= 7000; t += 1000) {
      scheduler.observe(t, 0, Map.of(3, 0.02));
      assertThat(scheduler.admit(t)).isEmpty();
    }
    assertThat(scheduler.credit()).as("beyond the bucket's 0.25").isCloseTo(0.46, within(1e-9));
    scheduler.remove(3);
    for (long t = 8000; t <= 10_000; t += 1000) {
      scheduler.observe(t, 0, Map.of());
    }
    assertThat(scheduler.admit(10_000)).containsExactly(1);
  }

  @Test
  void aNodeWhoseBurstNeedsMoreThanTheBudgetSavesUpInTheLongestWaitIsRejectedWithTheNumbers() {
    scheduler.enqueue(1, "", 5, 0.50);

    assertThat(scheduler.takeRejected()).containsExactly(Map.entry(1, "predicted cost 0.5000 is more than the budget"
        + " 0.0500 allows even in bursts: a 4 s burst needs 1.8000 (its cost over the budget), more than the budget"
        + " saves up in 30 s (budget.max_wait_seconds)"));
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
    assertThat(scheduler.admit(0)).isEmpty();
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
    scheduler.admit(0);

    scheduler.observe(1000, 0, Map.of(1, 0.09));
    scheduler.observe(1000, 0, Map.of(1, 0.01));

    assertThat(scheduler.shed(1000, Set.of())).isEmpty();
  }

  @Test
  void afterAShedNothingStartsUntilTheNextCostSample() {
    scheduler.enqueue(1, "", 5, 0.04);
    scheduler.enqueue(2, "", 10, 0.01);
    scheduler.admit(0);
    scheduler.observe(1000, 0, Map.of(1, 0.30, 2, 0.001));
    scheduler.enqueue(3, "", 5, 0.001);

    assertThat(scheduler.shed(1000, Set.of())).as("the rest of a burst of 1 would need 0.75, the bucket holds less")
        .containsExactly(2, 1);
    assertThat(scheduler.admit(0)).isEmpty();
    scheduler.observe(2000, 0, Map.of());
    assertThat(scheduler.admit(0)).as("1 costs more than the budget: it waits for a burst, the others start")
        .containsExactly(3, 2);
    assertThat(scheduler.takeRejected()).isEmpty();
  }

  @Test
  void predictionsAreScaledByHowMuchThePortUnderestimated() {
    scheduler.enqueue(1, "", 5, 0.01);
    scheduler.admit(0);
    scheduler.observe(1000, 0, Map.of(1, 0.02));
    scheduler.enqueue(2, "", 5, 0.02);
    scheduler.enqueue(3, "", 5, 0.01);

    assertThat(scheduler.calibration("")).isEqualTo(2.0);
    assertThat(scheduler.admit(0)).containsExactly(3);
    assertThat(scheduler.waitReason(2)).isEqualTo("waiting for budget: needs 0.0400 of 0.0500");
  }

  @Test
  void oneHypothesisUnderestimatedAThousandfoldDoesNotScaleTheOthers() {
    scheduler.enqueue(1, "method_call_overhead", 5, 0.00001);
    scheduler.enqueue(2, "jit_compile_time", 5, 0.0001);
    scheduler.admit(0);
    scheduler.observe(1000, 0, Map.of(1, 0.01, 2, 0.0001));
    scheduler.enqueue(3, "method_call_overhead", 5, 0.00004);
    scheduler.enqueue(4, "jit_compile_time", 5, 0.0001);

    assertThat(scheduler.calibration("method_call_overhead")).isCloseTo(1000.0, within(1e-6));
    assertThat(scheduler.calibration("jit_compile_time")).isEqualTo(1.0);
    assertThat(scheduler.calibration("cpu_bound")).as("not measured yet: the median of the others")
        .isCloseTo(500.5, within(1e-6));
    assertThat(scheduler.admit(0)).containsExactly(4);
    assertThat(scheduler.waitReason(3)).isEqualTo("waiting for budget: needs 0.0400 of 0.0500");
  }

  @Test
  void aNodeWithinAnObservedOneExpectsItsShareOfThatCostNotTheScaledPrediction() {
    scheduler.enqueue(1, "method_call_overhead", 5, 0.00004);
    scheduler.admit(0);
    scheduler.observe(1000, 0, Map.of(1, 0.04));
    scheduler.remove(1);
    scheduler.enqueueWithin(2, "method_call_overhead", 5, 0.00001, 0, 1);
    scheduler.enqueueWithin(3, "method_call_overhead", 5, 0.00002, 0, 1);
    scheduler.enqueue(4, "method_call_overhead", 5, 0.00003);

    assertThat(scheduler.calibration("method_call_overhead")).isCloseTo(1000.0, within(1e-6));
    assertThat(scheduler.admit(0)).as("a quarter and a half of the enclosing node's 0.04").containsExactly(2, 3);
    assertThat(scheduler.load()).isCloseTo(0.03, within(1e-12));
    assertThat(scheduler.waitReason(4)).as("not within it: scaled by the kind's factor")
        .isEqualTo("waiting for budget: needs 0.0300 of 0.0500");
  }

  @Test
  void oneTimeCostsOverdrawTheBucketAndNothingStartsUntilTheBudgetRepaidThemButNothingIsShed() {
    runThreeAtPriorities5To12();
    scheduler.enqueueWithin(5, "method_call_overhead", 1, 0.001, 0.05, -1);
    assertThat(scheduler.admit(0)).containsExactly(5);
    scheduler.enqueue(4, "cpu_bound", 15, 0.01);
    assertThat(scheduler.credit()).as("starts full: 5 s of the budget").isCloseTo(0.25, within(1e-12));

    scheduler.recompiling(0.10);
    scheduler.observe(1000, 0.30, Map.of(1, 0.01, 2, 0.01, 3, 0.01, 5, 0.001));
    assertThat(scheduler.credit()).as("0.25 + 0.05 - 0.031 - 0.30 - 0.10").isCloseTo(-0.131, within(1e-12));
    assertThat(scheduler.shed(3000, Set.of())).as("one-time costs shed nothing").isEmpty();
    assertThat(scheduler.waitReason(4)).startsWith("waiting for budget: one-time costs (probes going in and out,"
        + " the JIT recompiling) are being repaid; the bucket holds -0.1310 of 0.2500");

    scheduler.recompiling(0);
    long startedAt = -1;
    for (long t = 2000; t <= 20_000 && startedAt < 0; t += 1000) {
      scheduler.observe(t, 0, Map.of(1, 0.01, 2, 0.01, 3, 0.01, 5, 0.001));
      startedAt = scheduler.admit(t).contains(4) ? t : -1;
    }
    assertThat(startedAt).as("0.019 a second left over repays 0.131 after 7 s").isEqualTo(8000);
  }

  @Test
  void theJitsRecompilingIsChargedOnlyAfterANodeThatInsertsProbesStartedOrStopped() {
    scheduler.enqueue(1, "cpu_bound", 5, 0.01);
    scheduler.admit(0);
    scheduler.recompiling(0.50);
    scheduler.observe(1000, 0, Map.of(1, 0.01));
    assertThat(scheduler.credit()).as("the attach's aftermath, not the search's").isCloseTo(0.25, within(1e-12));

    scheduler.enqueueWithin(2, "method_call_overhead", 5, 0.001, 0.01, -1);
    scheduler.admit(1000);
    scheduler.observe(2000, 0, Map.of(1, 0.01, 2, 0.001));
    assertThat(scheduler.credit()).isCloseTo(0.25 + 0.039 - 0.50, within(1e-12));
    scheduler.recompiling(0);
    for (long t = 3000; t <= 12_000; t += 1000) {
      scheduler.observe(t, 0, Map.of(1, 0.01, 2, 0.001));
    }
    scheduler.remove(2);
    scheduler.recompiling(0.10);
    scheduler.observe(13_000, 0, Map.of(1, 0.01));
    assertThat(scheduler.credit()).as("charged again after the node stopped")
        .isCloseTo(0.25 + 0.039 - 0.50 + 10 * 0.039 + 0.04 - 0.10, within(1e-9));
  }

  @Test
  void theBucketHoldsAtMostBurstSecondsOfTheBudget() {
    scheduler.observe(1000, 0, Map.of());
    scheduler.observe(60_000, 0, Map.of());

    assertThat(scheduler.credit()).isCloseTo(0.25, within(1e-12));
  }

  @Test
  void aStartWaitsForWhatItsKindWasSeenToCostOnce() {
    scheduler.enqueueWithin(1, "method_call_overhead", 5, 0.001, 0.01, -1);
    assertThat(scheduler.admit(0)).containsExactly(1);
    scheduler.observe(1000, 0.20, Map.of(1, 0.001));
    scheduler.remove(1);
    scheduler.enqueue(2, "method_call_overhead", 5, 0.0005);
    scheduler.enqueue(3, "cpu_bound", 5, 0.001);

    assertThat(scheduler.credit()).isCloseTo(0.25 + 0.05 - 0.001 - 0.20, within(1e-12));
    assertThat(scheduler.admit(1000)).as("0.0990 left; its kind cost 0.20 for 0.001 predicted: 0.10 for 0.0005")
        .containsExactly(3);
    assertThat(scheduler.waitReason(2)).endsWith("this start needs 0.1000");
    scheduler.observe(2000, 0, Map.of(3, 0.001));
    assertThat(scheduler.admit(2000)).as("0.0990 + 0.049 = 0.148 holds the 0.10 it needs").containsExactly(2);
  }

  @Test
  void nodesThatInsertNoProbesLearnNoOneTimeCostFromTheSpendingAfterTheirStart() {
    scheduler.enqueue(1, "cpu_bound", 5, 0.001);
    scheduler.admit(0);
    scheduler.observe(1000, 0.10, Map.of(1, 0.001));
    scheduler.enqueue(2, "cpu_bound", 5, 0.001);

    assertThat(scheduler.admit(1000)).containsExactly(2);
  }

  @Test
  void aStartWaitsUntilTheBucketHoldsItsPredictedOneTimeCost() {
    scheduler.enqueue(1, "cpu_bound", 5, 0.01);
    scheduler.admit(0);
    scheduler.observe(1000, 0.20, Map.of(1, 0.01));
    scheduler.enqueueWithin(2, "method_call_overhead", 5, 0.001, 0.15, -1);

    assertThat(scheduler.admit(1000)).as("0.09 in the bucket").isEmpty();
    assertThat(scheduler.waitReason(2)).endsWith("the bucket holds 0.0900 of 0.2500 and this start needs 0.1500");
    scheduler.observe(2000, 0, Map.of(1, 0.01));
    assertThat(scheduler.admit(2000)).isEmpty();
    scheduler.observe(3000, 0, Map.of(1, 0.01));
    assertThat(scheduler.admit(3000)).as("0.09 + 2 × 0.04").containsExactly(2);
  }

  @Test
  void aOneTimeCostLargerThanTheBudgetSavesUpInTheLongestWaitIsRejectedWithTheNumbers() {
    BudgetScheduler small = new BudgetScheduler(0.01, 1000, 10, 5);
    small.enqueueWithin(1, "method_call_overhead", 5, 0.001, 0.31, -1);
    small.enqueueWithin(2, "k", 5, 0.001, 0.01, -1);
    small.admit(0);
    small.observe(1000, 0.50, Map.of(2, 0.001));
    small.remove(2);
    small.enqueue(3, "k", 5, 0.001);
    small.admit(1000);

    assertThat(small.takeRejected()).containsExactly(
        Map.entry(1, "its one-time cost (probes going in and out, the JIT compiling the code again) is expected at"
            + " 0.3100, more than the budget saves up for one start (0.3000 = the budget × 30 s, budget.max_wait_seconds)"),
        Map.entry(3, "its one-time cost (probes going in and out, the JIT compiling the code again) is expected at"
            + " 0.5000, more than the budget saves up for one start (0.3000 = the budget × 30 s, budget.max_wait_seconds)"));
  }

  @Test
  void theBudgetMustBeAFractionOfTheCpu() {
    assertThatThrownBy(() -> new BudgetScheduler(5, 1000, 10, 5))
        .hasMessage("budget must be a fraction of the target's CPU in (0, 1), is 5.0");
  }

  /** Nodes 1, 2 and 3 at priorities 5, 10 and 12, each predicted at 0.01, all running. */
  private void runThreeAtPriorities5To12() {
    scheduler.enqueue(1, "", 5, 0.01);
    scheduler.enqueue(2, "", 10, 0.01);
    scheduler.enqueue(3, "", 12, 0.01);
    scheduler.admit(0);
  }
}
