package dev.bottlenose.web.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.Search;
import dev.bottlenose.consultant.Settings;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class ProgressTest {

  @Test
  void aNodesLineGivesItsValueInItsHypothesisUnit() {
    HypothesisCatalog hypotheses = HypothesisCatalog.of(Settings.defaults());
    JsonObject cpu = new JsonObject().put("hypothesis", "cpu_bound").put("focus", new JsonArray()).put("value", 1.79213)
        .put("threshold", 0.3);
    assertThat(Progress.value(cpu, hypotheses)).isEqualTo("  1.792 s per second (threshold 0.3)");
    assertThat(Progress.value(cpu.copy().put("hypothesis", "small_io_ops").put("threshold", 4096), hypotheses))
        .isEqualTo("  1.792 bytes per operation (threshold 4096)");
    assertThat(Progress.value(cpu.copy().put("hypothesis", "gone"), hypotheses)).as("a hypothesis not known: no unit guessed")
        .isEqualTo("  1.792 (threshold 0.3)");
    assertThat(Progress.value(cpu.copy().putNull("value"), hypotheses)).as("not measured yet").isEmpty();
  }

  @Test
  void theStatusLineSaysWhereTheBudgetGoesInPercent() {
    assertThat(Progress.spending(new Search.Spending(0.0031, 0.0048, 0.01)))
        .isEqualTo("measuring 0.31% + 0.48% attached, of the 1.00% budget");
    assertThat(Progress.spending(new Search.Spending(0.0851, 0.0048, 0.05, 0.082)))
        .isEqualTo("measuring 8.51% + 0.48% attached, of the 5.00% budget (8.20% of it a burst, paid from budget saved up)");
    assertThat(Progress.spending(new Search.Spending(0.004, 0.018, 0.01)))
        .isEqualTo("measuring 0.40% + 1.80% attached, of the 1.00% budget; being attached takes more than the budget"
            + " leaves, so the search measures within 0.50% on top");
  }

  @Test
  void theStatusLineAddsWhatTheToolsOwnProcessesTakeOutsideTheBudget() {
    assertThat(Progress.spending(new Search.Spending(0.0031, 0.0048, 0.01, 0, 0.024, 0.027)))
        .isEqualTo("measuring 0.31% + 0.48% attached, of the 1.00% budget; besides, the tool's own processes on this"
            + " machine take 5.10% (daemon 2.40%, this command 2.70%)");
    assertThat(Progress.spending(new Search.Spending(0.0031, 0.0048, 0.01, 0, 0.024, Double.NaN)))
        .endsWith("take 2.40% (daemon 2.40%, this command unknown)");
    assertThat(Progress.spending(new Search.Spending(0.0031, 0.0048, 0.01, 0, Double.NaN, 0.051)))
        .as("a command that serves its target itself: the daemon's share is in its own")
        .endsWith("take 5.10% (this command 5.10%)");
  }

  @Test
  void theStatusLineEndsWithWhatTheTargetsJitCompiledForTheTool() {
    assertThat(Progress.spending(new Search.Spending(0.0031, 0.0048, 0.01, 0, Double.NaN, 0.051, 0.041, 6.23)))
        .endsWith("take 5.10% (this command 5.10%); the target's JIT has compiled for the tool 6.2 s so far, 4.10% of"
            + " its CPU since the attach");
    assertThat(Progress.spending(new Search.Spending(0.0031, 0.0048, 0.01, 0, Double.NaN, 0.051, Double.NaN,
        Double.NaN))).as("not known yet").endsWith("(this command 5.10%)");
  }

  @Test
  void theClosingLineSaysWhatTheSearchCostInAll() {
    Search.Spending last = new Search.Spending(0.0031, 0.0048, 0.01, 0, Double.NaN, 0.051, 0.041, 19.74);
    assertThat(Progress.totalCost(9.83, 52.4, last)).isEqualTo("what the search cost: this command 9.8 s of CPU in 52 s"
        + " since it started (0.19 of a core), on the target's machine; the target's JIT compiled for the tool 19.7 s");
    Search.Spending daemonApart = new Search.Spending(0.0031, 0.0048, 0.01, 0, 0.012, 0.051);
    assertThat(Progress.totalCost(4.0, 40, daemonApart)).isEqualTo("what the search cost: this command 4.0 s of CPU in"
        + " 40 s since it started (0.10 of a core), on the target's machine (the daemon's own process not counted)");
    assertThat(Progress.totalCost(-1, 40, null)).isEqualTo("what the search cost: this command's CPU is not known");
  }
}
