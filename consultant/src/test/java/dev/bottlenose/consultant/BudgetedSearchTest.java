package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.Focus;
import java.util.ArrayList;
import java.util.List;
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
    int plain = ticksUntilSpinIsTrue(null);
    int deep = ticksUntilSpinIsTrue(PlantedPrograms.SPIN);

    assertThat(plain).isBetween(28, 30);
    assertThat(deep).isBetween(14, 15);
  }

  private static int ticksUntilSpinIsTrue(dev.bottlenose.model.ResourcePath hint) {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost);
    Search search = Search.create(SearchOptions.of("deep"), driver, PlantedPrograms.oracle(), driver);
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
