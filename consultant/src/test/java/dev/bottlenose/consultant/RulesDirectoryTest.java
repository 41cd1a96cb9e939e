package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.model.Focus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RulesDirectoryTest {
  @TempDir Path dir;

  private static final String CONVOY_RULE = """
      package dev.bottlenose.consultant.rules;

      import dev.bottlenose.consultant.Axis;
      import dev.bottlenose.consultant.NodeState;
      import dev.bottlenose.model.Hierarchy;

      rule RefineContendedLockToLockConvoy
      when
          $n : NodeFact( hypothesisId == "sync_wait", state == NodeState.TRUE, focus.get(Hierarchy.SYNC_OBJECTS).isRoot() == false, $id : id, $f : focus )
      then
          insertLogical( new Refinement( $id, "lock_convoy", $f, Axis.WHY, null, "a contended lock: is it a convoy?" ) );
      end
      """;

  private static final String CONVOY_SETTINGS = """
      hypothesis.lock_convoy.name=Lock convoy
      hypothesis.lock_convoy.metric=lock_handoff_share
      hypothesis.lock_convoy.unit=fraction of lock hand-offs
      hypothesis.lock_convoy.refine=Threads
      lock_convoy.threshold=0.5
      """;

  @Test
  void aHypothesisDroppedInAsARuleFileAndSettingsJoinsTheSearch() throws Exception {
    Files.writeString(dir.resolve("lock-convoy.drl"), CONVOY_RULE, StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("lock-convoy.properties"), CONVOY_SETTINGS, StandardCharsets.UTF_8);
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::contendedLock, PlantedPrograms::cost);
    Search search = Search.create(SearchOptions.of("convoy").withRulesDirectory(dir), driver, PlantedPrograms.oracle(), driver).begin();

    driver.runToEnd(search, 60);

    assertThat(search.hypotheses().get("lock_convoy").threshold()).isEqualTo(0.5);
    Focus lock = Focus.of(PlantedPrograms.CACHE_LOCK);
    assertThat(search.graph().find("sync_wait", lock).state()).isEqualTo(NodeState.TRUE);
    ShgNode convoy = search.graph().find("lock_convoy", lock);
    assertThat(convoy.state()).isEqualTo(NodeState.TRUE);
    assertThat(search.graph().edges()).anyMatch(e -> e.to() == convoy.id() && e.reason().equals("a contended lock: is it a convoy?"));
  }

  @Test
  void aRuleFileThatDoesNotCompileIsRejectedNamingFileAndLine() throws Exception {
    Files.writeString(dir.resolve("broken.drl"), "package dev.bottlenose.consultant.rules;\nrule Broken when\n  NoSuchFact( )\nthen\nend\n", StandardCharsets.UTF_8);
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::contendedLock, PlantedPrograms::cost);

    assertThatThrownBy(() -> Search.create(SearchOptions.of("broken").withRulesDirectory(dir), driver, PlantedPrograms.oracle(), driver))
        .hasMessageStartingWith("rules do not compile:")
        .hasMessageContaining("broken.drl")
        .hasMessageContaining("NoSuchFact");
    assertThat(driver.requested()).isEmpty();
  }

  @Test
  void badSettingsAreRejectedNamingTheKey() throws Exception {
    Files.writeString(dir.resolve("typo.properties"), "cpu_bound.threshold=thirty percent\n", StandardCharsets.UTF_8);

    assertThatThrownBy(() -> SearchOptions.of("typo").withRulesDirectory(dir).settings())
        .hasMessage(dir.resolve("typo.properties") + ": cpu_bound.threshold must be a number, is 'thirty percent'");
    assertThatThrownBy(() -> HypothesisCatalog.of(Settings.defaults().with("hypothesis.x.metric", "m").with("x.threshold", "1")
        .with("hypothesis.x.parent", "nobody"))).hasMessage("hypothesis x names an unknown parent 'nobody'");
    assertThatThrownBy(() -> HypothesisCatalog.of(Settings.defaults().with("hypothesis.x.metric", "m").with("x.threshold", "1")
        .with("hypothesis.x.refine", "Code, Heap"))).hasMessage("hypothesis.x.refine: unknown hierarchy 'Heap'; expected Code, Threads, SyncObjects, Memory, IO, VM, Process or Machine");
    assertThatThrownBy(() -> HypothesisCatalog.of(Settings.defaults().with("hypothesis.x.metric", "m")))
        .hasMessage("missing setting x.threshold");
    assertThatThrownBy(() -> SearchOptions.of("../x")).hasMessageStartingWith("search id must be");
  }
}
