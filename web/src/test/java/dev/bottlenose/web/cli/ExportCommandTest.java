package dev.bottlenose.web.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.json.Json;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code export} on a saved search with a JVM's CPU stacks (a real one, from a search of a churning workload). */
class ExportCommandTest {
  private static final String ID = "s-20261129-004243-67bf";
  private static final String STACK = "java.lang.Thread.run();diag.Run$$Lambda.run();"
      + "diag.Run.lambda$workers$1(Run$Worker);diag.churn.EventCounter$$Lambda.run();"
      + "diag.churn.EventCounter.lambda$main$0(long);diag.churn.EventCounter.count(long)";

  @TempDir
  Path dir;
  private Path data;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void saveTheSearch() throws Exception {
    data = Files.createDirectories(dir.resolve("searches"));
    Files.copy(Path.of(getClass().getResource("/searches/" + ID + ".json").toURI()), data.resolve(ID + ".json"));
  }

  private int run(String... args) {
    out.reset();
    err.reset();
    return Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void collapsedStacksGoToStdout() {
    assertThat(run("export", ID, "--data", data.toString(), "--format", "collapsed")).as(err()).isZero();
    assertThat(out()).isEqualTo(STACK + " 22\n"
        + STACK + ";java.util.HashMap.merge(Object, Object, BiFunction) 210\n"
        + STACK + ";java.lang.Long.valueOf(long) 16\n"
        + STACK + ";java.util.HashMap.merge(Object, Object, BiFunction);java.util.HashMap.hash(Object) 4\n");
  }

  @Test
  void aSavedSearchFileAndTheGraphFormatsToo() throws Exception {
    Path file = data.resolve(ID + ".json");
    Path speedscope = dir.resolve("out.speedscope.json");
    assertThat(run("export", file.toString(), "--format=speedscope", "--daemon", "vm-4763",
        "--out", speedscope.toString())).as(err()).isZero();
    assertThat(err()).contains("wrote " + speedscope);
    Map<?, ?> json = (Map<?, ?>) Json.parse(Files.readString(speedscope));
    Map<?, ?> profile = (Map<?, ?>) ((List<?>) json.get("profiles")).get(0);
    assertThat(profile.get("name")).isEqualTo("vm-4763 cpu");
    assertThat(profile.get("endValue")).isEqualTo(252L);

    assertThat(run("export", ID, "--data", data.toString(), "--format", "json")).isZero();
    assertThat(((Map<?, ?>) Json.parse(out())).get("id")).isEqualTo(ID);
    assertThat(run("export", ID, "--data", data.toString(), "--format", "dot")).isZero();
    assertThat(out()).startsWith("digraph");
  }

  @Test
  void pprofGoesToAFileOrToAStdoutThatIsNoTerminal() throws Exception {
    Path pprof = dir.resolve("cpu.pb.gz");
    assertThat(run("export", ID, "--data", data.toString(), "--format", "pprof", "--out", pprof.toString()))
        .as(err()).isZero();
    assertThat(out()).isEmpty();
    byte[] written = Files.readAllBytes(pprof);
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(written))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1)).contains("java.util.HashMap.hash(Object)")
          .contains("/Code/java.util/HashMap/hash(Ljava/lang/Object;)I");
    }
    // stdout here is a pipe (a test's stream), as with `bottlenose export ... --format pprof > cpu.pb.gz`
    assertThat(run("export", ID, "--data", data.toString(), "--format", "pprof")).as(err()).isZero();
    assertThat(out.toByteArray()).isEqualTo(written);
  }

  @Test
  void whatIsMissingOrWrongIsNamed() {
    assertThat(run("export", ID, "--data", data.toString(), "--format", "png")).isEqualTo(2);
    assertThat(err()).contains("unknown export format 'png': expected json, dot, svg, collapsed, speedscope, pprof or jfr");
    assertThat(run("export", ID, "--data", data.toString())).isEqualTo(2);
    assertThat(err()).contains("Missing required option: '--format=FORMAT'");
    assertThat(run("export", ID, "--data", data.toString(), "--format", "pprof", "--graph", "heap", "--out", "x"))
        .isEqualTo(2);
    assertThat(err()).contains("--graph must be one of cpu, wait, sync, io, alloc, is 'heap'");
    assertThat(run("export", "nope", "--data", data.toString(), "--format", "json")).isEqualTo(2);
    assertThat(err()).contains("no saved search 'nope': neither a file nor a search id in " + data);
    assertThat(run("export", ID, "--data", data.toString(), "--format", "collapsed", "--graph", "sync")).isEqualTo(1);
    assertThat(err()).contains("bottlenose export: search '" + ID + "' kept no sync stacks of vm-4763");
    assertThat(run("export", ID, "--data", data.toString(), "--format", "speedscope", "--daemon", "vm-1")).isEqualTo(1);
    assertThat(err()).contains("kept no stacks of vm-1");
    assertThat(run("export", ID, "--data", data.toString(), "--format", "collapsed", "--out",
        dir.resolve("no/such/dir/x.txt").toString())).isEqualTo(1);
    assertThat(err()).contains("cannot write " + dir.resolve("no/such/dir/x.txt") + ": no such directory");
  }

  @Test
  void aSearchWithoutARecordingSaysWhyItHasNoJfr() {
    assertThat(run("export", ID, "--data", data.toString(), "--format", "jfr", "--out", dir.resolve("x.jfr").toString()))
        .isEqualTo(1);
    assertThat(err()).contains("bottlenose export: search '" + ID + "' kept no JFR recording: a search keeps its JVMs'"
        + " recordings as it ends");
    assertThat(dir.resolve("x.jfr")).doesNotExist();
  }

  @Test
  void theJfrRecordingKeptBesideTheSearchIsWrittenToAFileOrStdoutByteForByte() throws Exception {
    // a real JFR file: this JVM's own recording of a second
    Path jfr = data.resolve(ID + ".vm-4763.jfr");
    try (jdk.jfr.Recording r = new jdk.jfr.Recording()) {
      r.enable("jdk.CPULoad").withPeriod(java.time.Duration.ofMillis(100));
      r.start();
      Thread.sleep(300);
      r.dump(jfr);
    }
    byte[] bytes = Files.readAllBytes(jfr);
    withRecordings(List.of(Map.of("daemon", "vm-4763", "file", jfr.getFileName().toString(), "bytes", (long) bytes.length,
        "fromMillis", 1L, "toMillis", 2L), Map.of("daemon", "vm-9", "error", "cannot do dumping the JFR recording: target"
        + " exited")));

    Path out = dir.resolve("out.jfr");
    assertThat(run("export", ID, "--data", data.toString(), "--format", "jfr", "--out", out.toString())).as(err()).isZero();
    assertThat(Files.readAllBytes(out)).isEqualTo(bytes);
    try (jdk.jfr.consumer.RecordingFile f = new jdk.jfr.consumer.RecordingFile(out)) {
      assertThat(f.readEventTypes()).anyMatch(t -> t.getName().equals("jdk.CPULoad"));
    }
    assertThat(run("export", data.resolve(ID + ".json").toString(), "--format", "jfr")).as(err()).isZero();
    assertThat(this.out.toByteArray()).as("on stdout, nothing added").isEqualTo(bytes);

    assertThat(run("export", ID, "--data", data.toString(), "--format", "jfr", "--daemon", "vm-9")).isEqualTo(1);
    assertThat(err()).contains("search '" + ID + "' kept no JFR recording of vm-9: cannot do dumping the JFR recording:"
        + " target exited");
    assertThat(run("export", ID, "--data", data.toString(), "--format", "jfr", "--daemon", "vm-1")).isEqualTo(1);
    assertThat(err()).contains("kept no JFR recording of vm-1 (it kept: vm-4763, vm-9)");
    Files.delete(jfr);
    assertThat(run("export", ID, "--data", data.toString(), "--format", "jfr")).isEqualTo(1);
    assertThat(err()).contains("the JFR recording of search '" + ID + "' (" + jfr + ") is not there any more");
  }

  @SuppressWarnings("unchecked")
  private void withRecordings(List<Map<String, Object>> recordings) throws Exception {
    Path file = data.resolve(ID + ".json");
    Map<String, Object> saved = new java.util.LinkedHashMap<>((Map<String, Object>) Json.parse(Files.readString(file)));
    saved.put("recordings", recordings);
    Files.writeString(file, Json.write(saved));
  }
}
