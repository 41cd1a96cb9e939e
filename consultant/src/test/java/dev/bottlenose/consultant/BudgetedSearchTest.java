package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BudgetedSearchTest {

  @Test
  void whenMeasuringCostsThreeTimesThePredictionTheSearchShedsAndNeverStaysOverBudget() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost).observedFactor(3);
    Search search = Search.create(SearchOptions.of("tight").withBudget(0.02).with("search.max_time_seconds", "200"),
        driver, PlantedPrograms.oracle(), driver).begin();
    List<String> shedReasons = new ArrayList<>();
    search.addListener(e -> {
      if (e instanceof ShgEvent.NodeChanged c && c.node().reason() != null && c.node().reason().startsWith("shed")) {
        shedReasons.add(c.node().reason());
      }
    });
    int overInARow = 0;
    int worst = 0;
    while (!search.isFinished()) {
      driver.tick(search);
      overInARow = driver.liveCost() > 0.02 + 1e-9 ? overInARow + 1 : 0;
      worst = Math.max(worst, overInARow);
    }

    assertThat(shedReasons).isNotEmpty();
    assertThat(worst).isLessThanOrEqualTo(1);
    assertThat(search.graph().find("cpu_bound", Focus.of(PlantedPrograms.SPIN)).state()).isEqualTo(NodeState.TRUE);
    assertThat(driver.live()).isEmpty();
  }

  @Test
  void aNodeShedAgainAndAgainGoesOnFromItsEvidence() {
    // every third interval the measurements cost three times their prediction (a program's bursts of events): the
    // lowest-priority nodes are shed then and admitted again once the cost is back down, never measured for the
    // sufficient time in one piece; a node that started from nothing at each admission took 26 intervals here
    boolean[] spike = {false};
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::mostlyAsleep,
        r -> PlantedPrograms.cost(r) * (spike[0] ? 3 : 1));
    Search search = Search.create(SearchOptions.of("pieces").withBudget(0.01).with("search.max_time_seconds", "60"),
        driver, PlantedPrograms.oracle(), driver).begin();
    Map<String, Integer> shedTimes = new HashMap<>();
    Map<String, Integer> falseAt = new HashMap<>();
    int[] tick = {0};
    search.addListener(e -> {
      if (e instanceof ShgEvent.NodeChanged c && c.node().focus().equals(Focus.WHOLE_PROGRAM)) {
        if (c.node().reason() != null && c.node().reason().startsWith("shed")) {
          shedTimes.merge(c.node().hypothesis(), 1, Integer::sum);
        }
        if (c.node().state() == NodeState.FALSE) {
          falseAt.putIfAbsent(c.node().hypothesis(), tick[0]);
        }
      }
    });
    for (tick[0] = 1; tick[0] <= 30 && !search.isFinished(); tick[0]++) {
      spike[0] = tick[0] % 3 == 0;
      driver.tick(search);
    }

    assertThat(shedTimes.values()).as("shed several times").anyMatch(n -> n >= 3);
    for (String hypothesis : shedTimes.keySet()) {
      assertThat(falseAt.get(hypothesis)).as(hypothesis + ", shed " + shedTimes.get(hypothesis) + " times, false at")
          .isNotNull().isLessThanOrEqualTo(20);
    }
  }

  @Test
  void whatBeingAttachedCostsComesOffTheBudgetAndTheSpendingSaysWhereItGoes() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost).attached(0.01);
    Search search = Search.create(SearchOptions.of("attached").withBudget(0.02).with("search.max_time_seconds", "200"),
        driver, PlantedPrograms.oracle(), driver).begin();
    assertThat(search.spending().attached()).as("not told yet").isZero();
    assertThat(search.spending().budget()).isEqualTo(0.02);
    int overInARow = 0;
    int worst = 0;
    while (!search.isFinished()) {
      driver.tick(search);
      assertThat(search.spending().attached()).isEqualTo(0.01);
      assertThat(search.spending().budget()).isEqualTo(0.02);
      overInARow = driver.liveCost() > 0.01 + 1e-9 ? overInARow + 1 : 0;
      worst = Math.max(worst, overInARow);
      assertThat(search.spending().measuring()).as("what the measurements cost, as the search sees it")
          .isCloseTo(driver.liveCost(), org.assertj.core.data.Offset.offset(1e-9));
    }

    assertThat(worst).as("the measurements stay within what being attached leaves of the budget").isLessThanOrEqualTo(1);
    assertThat(search.graph().find("cpu_bound", Focus.of(PlantedPrograms.SPIN)).state()).isEqualTo(NodeState.TRUE);
  }

  @Test
  void aHintFromACheapSourceGetsItsPathTestedFirst() {
    ScriptedEngineDriver plain = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost);
    Search unhinted = Search.create(SearchOptions.of("plain"), plain, PlantedPrograms.oracle(), plain).begin();
    plain.runToEnd(unhinted, 20);
    ScriptedEngineDriver hinted = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost);
    Search deepStart = Search.create(SearchOptions.of("hinted"), hinted, PlantedPrograms.oracle(), hinted);
    deepStart.hint(PlantedPrograms.MAIN, 1.0, "stack samples");
    deepStart.begin();
    hinted.runToEnd(deepStart, 20);

    MetricRequest hot = new MetricRequest("cpu_inclusive", Focus.of(PlantedPrograms.SPIN.parent()), dev.bottlenose.model.ConstraintMode.INCLUSIVE);
    MetricRequest main = new MetricRequest("cpu_inclusive", Focus.of(PlantedPrograms.MAIN.parent()), dev.bottlenose.model.ConstraintMode.INCLUSIVE);
    assertThat(plain.requested().indexOf(hot)).isLessThan(plain.requested().indexOf(main));
    assertThat(hinted.requested().indexOf(main)).isLessThan(hinted.requested().indexOf(hot));
    // where 10, minus the hint bonus 6 x 1.0, minus 0.01 per level of the focus (a class: 2)
    assertThat(deepStart.graph().find("cpu_bound", Focus.of(PlantedPrograms.MAIN.parent())).priority())
        .isCloseTo(3.98, org.assertj.core.api.Assertions.within(1e-9));
  }

  @Test
  void deepStartJumpsToTheHintedMethodAndDecidesItInHalfTheTime() {
    SearchOptions paradyn = SearchOptions.of("deep").with("search.early_refinement_seconds", "6").with("search.clear_seconds", "6");
    int plain = ticksUntilSpinIsTrue(paradyn, null);
    int deep = ticksUntilSpinIsTrue(paradyn, PlantedPrograms.SPIN);

    assertThat(plain).isBetween(28, 30);
    assertThat(deep).isBetween(14, 15);
  }

  @Test
  void earlyRefinementOverlapsEachLevelsEvidenceWithItsParentsAndHalvesTheWalk() {
    SearchOptions early = SearchOptions.of("early").with("search.clear_seconds", "6");
    int plain = ticksUntilSpinIsTrue(early, null);
    int deep = ticksUntilSpinIsTrue(early, PlantedPrograms.SPIN);

    // Paradyn's way (the test above): 28-30 ticks, 14-15 with Deep Start
    assertThat(plain).isBetween(13, 15);
    assertThat(deep).isBetween(8, 10);
  }

  @Test
  void clearEvidenceDecidesEachLevelInHalfTheSufficientTime() {
    int plain = ticksUntilSpinIsTrue(SearchOptions.of("clear"), null);
    int deep = ticksUntilSpinIsTrue(SearchOptions.of("clear"), PlantedPrograms.SPIN);

    // with early refinement alone (the test above): 13-15 ticks, 8-10 with Deep Start
    assertThat(plain).isLessThan(13);
    assertThat(deep).isLessThan(8);
  }

  @Test
  void childrenStartedEarlyKeepTheirEvidenceWhenTheParentTurnsTrue() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost);
    Search search = Search.create(SearchOptions.of("keeps"), driver, PlantedPrograms.oracle(), driver).begin();
    List<String> stops = new ArrayList<>();
    search.addListener(e -> {
      if (e instanceof ShgEvent.NodeChanged c && c.node().state() == NodeState.STOPPED) {
        stops.add(c.node().hypothesis() + " " + c.node().focus() + ": " + c.node().reason());
      }
    });
    driver.runToEnd(search, 60);

    assertThat(search.graph().find("cpu_bound", Focus.of(PlantedPrograms.SPIN)).state()).isEqualTo(NodeState.TRUE);
    assertThat(stops).as("no child restarts when its promising parent becomes true").isEmpty();
  }

  @Test
  void childrenStartedEarlyStopAndReleaseTheirMeasurementsWhenTheParentsEvidenceTurns() {
    double[] level = {0.5};
    ScriptedEngineDriver driver = new ScriptedEngineDriver(r -> !r.metric().equals("cpu_inclusive") ? 0
        : r.focus().equals(Focus.WHOLE_PROGRAM) ? level[0] : Double.NaN, PlantedPrograms::cost);
    Search search = Search.create(SearchOptions.of("turns").with("search.clear_seconds", "6"), driver,
        PlantedPrograms.oracle(), driver).begin();
    Focus acme = Focus.of(PlantedPrograms.SPIN.parent().parent());
    for (int tick = 1; tick <= 4; tick++) {
      driver.tick(search);
    }
    assertThat(search.graph().find("cpu_bound", Focus.WHOLE_PROGRAM).state()).isEqualTo(NodeState.TESTING);
    assertThat(search.graph().find("cpu_bound", acme).state()).as("started before the parent's verdict").isEqualTo(NodeState.TESTING);

    level[0] = 0.05;
    for (int tick = 5; tick <= 20 && search.graph().find("cpu_bound", Focus.WHOLE_PROGRAM).state() == NodeState.TESTING; tick++) {
      driver.tick(search);
    }
    ShgNode child = search.graph().find("cpu_bound", acme);
    assertThat(child.state()).as(search.graph().toText()).isEqualTo(NodeState.STOPPED);
    assertThat(child.reason()).isEqualTo("parent no longer true");
    assertThat(driver.live()).noneMatch(r -> r.focus().equals(acme));
  }

  @Test
  void aNodeNotYetTrueIsNotRefinedIntoCodeTheSamplesCannotTellAboutYet() {
    boolean[] sampled = {false};
    TreeOracle tree = PlantedPrograms.oracle();
    // the daemons' call graphs: too few samples until the flag is set, then the hot package in all of them
    ResourceOracle oracle = path -> tree.children(path).stream().map(c -> new ResourceChild(c.parent(), c.child(),
        c.relation(), !sampled[0] ? ResourceChild.NOT_YET : c.child().contains(PlantedPrograms.SPIN) ? 900 : 0))
        .toList();
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost);
    Search search = Search.create(SearchOptions.of("blind"), driver, oracle, driver).begin();
    Focus acme = Focus.of(PlantedPrograms.SPIN.parent().parent());
    for (int tick = 1; tick <= 3; tick++) {
      driver.tick(search);
    }
    assertThat(search.graph().find("cpu_bound", Focus.WHOLE_PROGRAM).state()).isEqualTo(NodeState.TESTING);
    assertThat(search.graph().nodes()).as("passing for a while, but nothing recorded to bet on")
        .noneMatch(n -> n.hypothesis().equals("cpu_bound") && n.focus().get(Hierarchy.CODE) != null
            && !n.focus().get(Hierarchy.CODE).isRoot());

    sampled[0] = true;
    for (int tick = 4; tick <= 30; tick++) {
      driver.tick(search);
    }
    assertThat(search.graph().find("cpu_bound", Focus.of(PlantedPrograms.SPIN)).state()).isEqualTo(NodeState.TRUE);
    assertThat(search.graph().find("cpu_bound", acme)).isNotNull();
    assertThat(search.graph().find("cpu_bound", Focus.of(PlantedPrograms.SORT.parent().parent())))
        .as("the package the samples never saw").isNull();
  }

  @Test
  void aTrueNodeWaitsABoundedTimeForSamplesThatNeverComeThenRefinesAsParadynDid() {
    TreeOracle tree = PlantedPrograms.oracle();
    ResourceOracle oracle = path -> tree.children(path).stream().map(c -> new ResourceChild(c.parent(), c.child(),
        c.relation(), ResourceChild.NOT_YET)).toList();
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost);
    Search search = Search.create(SearchOptions.of("slow-samples"), driver, oracle, driver).begin();
    Focus acme = Focus.of(PlantedPrograms.SPIN.parent().parent());
    int trueAt = -1;
    int refinedAt = -1;
    for (int tick = 1; tick <= 40 && refinedAt < 0; tick++) {
      driver.tick(search);
      if (trueAt < 0 && search.graph().find("cpu_bound", Focus.WHOLE_PROGRAM).state() == NodeState.TRUE) {
        trueAt = tick;
      }
      if (search.graph().find("cpu_bound", acme) != null) {
        refinedAt = tick;
      }
    }
    assertThat(trueAt).isPositive();
    assertThat(refinedAt).as("waited for samples after the verdict, then went on without them").isGreaterThan(trueAt);
  }

  @Test
  void aTrueNodeNeverRefinesBlindIntoMoreChildrenThanItCouldTest() {
    // a program that defines a proxy class in a package of its own per request: 200 packages, and its threads are in
    // the VM, where execution samples never see them
    ResourceTree planted = PlantedPrograms.tree();
    for (int i = 0; i < 200; i++) {
      planted.put(Resource.of(ResourcePath.parse("/Code/jdk.proxy" + i + "/$Proxy" + i + "/run()V"), "method"));
    }
    TreeOracle tree = PlantedPrograms.oracle(planted);
    ResourceOracle oracle = path -> tree.children(path).stream().map(c -> new ResourceChild(c.parent(), c.child(),
        c.relation(), ResourceChild.NOT_YET)).toList();
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost);
    Search search = Search.create(SearchOptions.of("proxies"), driver, oracle, driver).begin();
    for (int tick = 1; tick <= 40; tick++) {
      driver.tick(search);
    }
    assertThat(search.graph().find("cpu_bound", Focus.WHOLE_PROGRAM).state()).isEqualTo(NodeState.TRUE);
    assertThat(search.graph().nodes()).as("202 packages and nothing recorded to choose among them")
        .noneMatch(n -> n.hypothesis().equals("cpu_bound") && n.focus().get(Hierarchy.CODE).depth() == 1);
  }

  private static int ticksUntilSpinIsTrue(SearchOptions options, ResourcePath hint) {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost);
    Search search = Search.create(options, driver, PlantedPrograms.oracle(), driver);
    if (hint != null) {
      search.hint(hint, 0.8, "stack samples");
    }
    search.begin();
    for (int tick = 1; tick <= 60; tick++) {
      driver.tick(search);
      ShgNode spin = search.graph().find("cpu_bound", Focus.of(PlantedPrograms.SPIN));
      if (spin != null && spin.state() == NodeState.TRUE) {
        return tick;
      }
    }
    return -1;
  }
}
