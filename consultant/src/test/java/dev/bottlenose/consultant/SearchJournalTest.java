package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running search is on disk as it runs: what a killed process leaves (the journal's bytes, no lock) is
 * listed after a restart as an interrupted search with the graph and values up to its last step.
 */
class SearchJournalTest {
  @TempDir Path dir;
  @TempDir Path afterRestart;

  @Test
  void aJournalNobodyWritesIsRecoveredAsAnInterruptedSearchWithEverythingUpToTheLastStep() throws Exception {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost);
    Search search = Search.create(SearchOptions.of("killed-1"), driver, PlantedPrograms.oracle(), driver);
    SearchStore store = new SearchStore(dir);
    SearchJournal journal = store.journal(search);
    search.begin();
    for (int i = 0; i < 8; i++) {
      driver.tick(search);
      journal.flush();
    }
    assertThat(SearchJournal.isBeingWritten(journal.file())).isTrue();
    assertThat(store.recoverInterrupted()).as("a journal still being written is left alone").isEmpty();

    // what a process killed after its 8th step leaves behind: the bytes, and no lock
    Files.copy(journal.file(), afterRestart.resolve("killed-1.journal"));
    SavedSearch expected = search.toSaved();
    SearchStore restarted = new SearchStore(afterRestart);

    assertThat(restarted.list()).singleElement().satisfies(s -> {
      assertThat(s.id()).isEqualTo("killed-1");
      assertThat(s.endReason()).startsWith("interrupted:");
      assertThat(s.nodes()).isEqualTo(expected.graph().nodes().size()).isGreaterThan(1);
    });
    SavedSearch recovered = restarted.open("killed-1");
    assertThat(recovered.graph().toJson()).isEqualTo(expected.graph().toJson());
    assertThat(recovered.series()).isEqualTo(expected.series());
    assertThat(recovered.settings()).isEqualTo(expected.settings());
    assertThat(recovered.endedAtMillis()).isEqualTo(driver.now());
    assertThat(afterRestart.resolve("killed-1.journal")).doesNotExist();

    journal.close();
    assertThat(journal.file()).doesNotExist();
  }

  @Test
  void aTornLastLineIsIgnoredAndAnEndedJournalKeepsItsReason() throws Exception {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::mostlyAsleep, PlantedPrograms::cost);
    Search search = Search.create(SearchOptions.of("torn-1").with("search.watch_until_found", "0"), driver, PlantedPrograms.oracle(), driver);
    SearchJournal journal = new SearchStore(dir).journal(search);
    search.begin();
    driver.runToEnd(search, 60);
    journal.flush();
    Path copy = afterRestart.resolve("torn-1.journal");
    Files.copy(journal.file(), copy);
    Files.writeString(copy, "{\"node\": {\"id\": 3, \"hypo", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

    SavedSearch recovered = new SearchStore(afterRestart).open(new SearchStore(afterRestart).recoverInterrupted().get(0));
    assertThat(recovered.endReason()).isEqualTo("converged: nothing left to test");
    assertThat(recovered.graph().toJson()).isEqualTo(search.toSaved().graph().toJson());
    journal.close();
  }
}
