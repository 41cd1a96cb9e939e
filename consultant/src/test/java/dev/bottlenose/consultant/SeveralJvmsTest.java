package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import org.junit.jupiter.api.Test;

class SeveralJvmsTest {
  private static final ResourcePath BUSY = ResourcePath.parse("/Process/4242");
  private static final ResourcePath IDLE = ResourcePath.parse("/Process/4343");

  /** Two JVMs run the same code; only the first one spins. Values are averages over the JVMs in the focus. */
  private static double busyAndIdle(MetricRequest r) {
    ResourcePath process = r.focus().get(Hierarchy.PROCESS);
    double share = process.isRoot() ? 0.5 : process.equals(BUSY) ? 1.0 : 0.0;
    return r.metric().equals("cpu_inclusive") ? PlantedPrograms.cpuHot(r) * share : 0.01;
  }

  @Test
  void oneSearchOverTwoJvmsNamesTheOneWhereTheHotMethodRuns() {
    ResourceTree tree = PlantedPrograms.tree();
    tree.put(Resource.of(IDLE, "process"));
    ScriptedEngineDriver driver = new ScriptedEngineDriver(SeveralJvmsTest::busyAndIdle, PlantedPrograms::cost);
    Search search = Search.create(SearchOptions.of("two-jvms").with("search.max_time_seconds", "300"),
        driver, PlantedPrograms.oracle(tree), driver).begin();

    driver.runToEnd(search, 300);

    SearchHistoryGraph g = search.graph();
    assertThat(g.find("cpu_bound", Focus.of(BUSY)).state()).isEqualTo(NodeState.TRUE);
    assertThat(g.find("cpu_bound", Focus.of(IDLE)).state()).isEqualTo(NodeState.FALSE);
    assertThat(g.trueLeaves()).anyMatch(n -> n.focus().get(Hierarchy.CODE).equals(PlantedPrograms.SPIN)
        && n.focus().get(Hierarchy.PROCESS).equals(BUSY));
    assertThat(g.nodes()).noneMatch(n -> n.state() == NodeState.TRUE && n.focus().get(Hierarchy.PROCESS).equals(IDLE));
    assertThat(driver.live()).isEmpty();
  }
}
