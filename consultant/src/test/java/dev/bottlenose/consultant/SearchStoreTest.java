package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SearchStoreTest {
  @TempDir Path dir;

  private static SavedSearch finished(String id) {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::mostlyAsleep, PlantedPrograms::cost);
    Search search = Search.create(SearchOptions.of(id).with("search.watch_until_found", "0"), driver, PlantedPrograms.oracle(), driver).begin();
    driver.runToEnd(search, 60);
    return search.toSaved();
  }

  @Test
  void aSavedSearchReopensWithItsGraphValuesAndSettings() throws Exception {
    SavedSearch saved = finished("asleep-1");
    SearchStore store = new SearchStore(dir);

    Path file = store.save(saved);
    SavedSearch reopened = store.open("asleep-1");

    assertThat(file).isEqualTo(dir.resolve("asleep-1.json"));
    assertThat(reopened.graph().toJson()).isEqualTo(saved.graph().toJson());
    assertThat(reopened.series()).isEqualTo(saved.series());
    assertThat(reopened.settings()).isEqualTo(saved.settings()).containsEntry("cpu_bound.threshold", "0.30");
    assertThat(reopened.endReason()).isEqualTo("converged: nothing left to test");
    assertThat(reopened.series()).extracting(s -> s.request().metric()).containsExactly("cpu_inclusive", "io_time", "gc_time", "sync_wait_sampled");
    assertThat(reopened.series().get(0).points()).hasSize(7);
  }

  @Test
  void theSampledStacksKeptWithASearchReopenAndAnOlderFileHasNone() throws Exception {
    SearchStore store = new SearchStore(dir);
    SavedSearch.Stacks cpu = new SavedSearch.Stacks("vm-7", "cpu", 10, List.of(new SavedSearch.Stacks.Frame(-1, "/Code", 10, 0),
        new SavedSearch.Stacks.Frame(0, "/Code/com.acme/Hot/spin()V", 10, 10)));
    SavedSearch s = new SavedSearch("with-stacks", 1, 2, "done", Map.of(), new SearchHistoryGraph("with-stacks"), List.of())
        .withStacks(List.of(cpu));
    store.save(s);

    assertThat(store.open("with-stacks").stacks()).containsExactly(cpu);
    Map<String, Object> older = new java.util.LinkedHashMap<>(s.toJson());
    older.remove("stacks");
    assertThat(SavedSearch.fromJson(older).stacks()).isEmpty();
  }

  @Test
  void aRecordingIsKeptBesideTheSearchForItsUserAloneAndNamedInIt() throws Exception {
    SearchStore store = new SearchStore(dir);
    String file = store.saveRecording("with-jfr", "vm/7 x", new byte[] {'F', 'L', 'R', 0, 2});
    assertThat(file).isEqualTo("with-jfr.vm_7_x.jfr");
    Path path = store.recordingFile(file);
    assertThat(path).isEqualTo(dir.resolve(file)).hasBinaryContent(new byte[] {'F', 'L', 'R', 0, 2});
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(path)))
        .isEqualTo("rw-------");
    SavedSearch s = new SavedSearch("with-jfr", 1, 2, "done", Map.of(), new SearchHistoryGraph("with-jfr"), List.of())
        .withRecordings(List.of(SavedSearch.Recording.kept("vm/7 x", file, 5, 10, 20),
            SavedSearch.Recording.missing("vm-8", "cannot do dumping the JFR recording: target exited")));
    store.save(s);
    assertThat(store.open("with-jfr").recordings()).isEqualTo(s.recordings());
    assertThat(store.list()).extracting(SearchStore.Summary::id).containsExactly("with-jfr");
    Map<String, Object> older = new java.util.LinkedHashMap<>(s.toJson());
    older.remove("recordings");
    assertThat(SavedSearch.fromJson(older).recordings()).isEmpty();
    assertThatThrownBy(() -> store.recordingFile("../elsewhere.jfr")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.recordingFile("with-jfr.json")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.saveRecording("../x", "vm-7", new byte[0])).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void listShowsEverySavedSearchAndSkipsOtherFiles() throws Exception {
    SearchStore store = new SearchStore(dir);
    store.save(finished("first"));
    store.save(finished("second"));
    Files.writeString(dir.resolve("notes.json"), "{\"hello\": 1}", StandardCharsets.UTF_8);

    assertThat(store.list()).extracting(SearchStore.Summary::id).containsExactlyInAnyOrder("first", "second");
    assertThat(store.list()).allMatch(s -> s.nodes() == 5 && s.trueNodes() == 0);
  }

  @Test
  void anUnknownIdOrADamagedFileIsAClearError() throws Exception {
    SearchStore store = new SearchStore(dir);
    Files.writeString(dir.resolve("broken.json"), "{\"format\": \"bottlenose-search/1\", \"id\": 3", StandardCharsets.UTF_8);

    assertThatThrownBy(() -> store.open("nope")).hasMessage("no saved search 'nope' in " + dir);
    assertThatThrownBy(() -> store.open("broken")).hasMessageStartingWith(dir.resolve("broken.json") + ": expected");
    assertThatThrownBy(() -> store.open("../etc/passwd")).hasMessage("not a search id: '../etc/passwd'");
  }

  @Test
  void theGraphExportsAsJsonAndDot() {
    SavedSearch saved = finished("export");
    SearchHistoryGraph g = saved.graph();

    Object json = Json.parse(Json.write(g.toJson()));
    assertThat(SearchHistoryGraph.fromJson(json).nodes()).isEqualTo(g.nodes());
    assertThat(SearchHistoryGraph.fromJson(json).edges()).isEqualTo(g.edges());
    String dot = g.toDot(saved.hypotheses());
    assertThat(dot).startsWith("digraph shg {").endsWith("}\n");
    assertThat(dot).contains("n0 [label=\"top\\n<>\\nfalse\", fillcolor=\"" + NodeState.FALSE.colour() + "\"];");
    assertThat(dot).as("a value in its unit").contains("\\nfalse\\n0.02 s per second (threshold 0.3)\"");
    assertThat(dot).contains("n0 -> n1 [color=\"" + Axis.WHY.colour() + "\", penwidth=2];");
    assertThat(dot.lines().filter(l -> l.contains("->")).count()).isEqualTo(g.edges().size());
    assertThat(g.find("cpu_bound", Focus.WHOLE_PROGRAM).toJson()).containsEntry("state", "false").containsEntry("threshold", 0.3);
  }

  @Test
  void theGraphPrintsAsAnIndentedTree() {
    SavedSearch saved = finished("text");
    SearchHistoryGraph g = saved.graph();

    assertThat(g.toText(saved.hypotheses()).lines()).hasSize(5);
    assertThat(g.toText(saved.hypotheses()))
        .startsWith("false    top <>\n  false    cpu_bound <>  0.02 s per second (threshold 0.3)\n");
    assertThat(g.toText()).as("the hypotheses not at hand: no unit guessed")
        .startsWith("false    top <>\n  false    cpu_bound <>  0.02 (threshold 0.3)\n");
  }
}
