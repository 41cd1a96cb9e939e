package dev.bottlenose.web.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.consultant.SearchStore;
import dev.bottlenose.web.render.Graphs;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestApiTest {
  @TempDir
  static Path data;
  private ServiceFixture fixture;

  @BeforeAll
  void start() throws Exception {
    new SearchStore(data).save(Graphs.saved("hot-1", "vm-42").withStacks(List.of(new SavedSearch.Stacks("vm-42", "cpu", 5,
        List.of(new SavedSearch.Stacks.Frame(-1, "/Code", 5, 0), new SavedSearch.Stacks.Frame(0, Graphs.HOT, 5, 5))))));
    // a search with a JVM's recording beside it: this JVM's own, a real JFR file
    SearchStore store = new SearchStore(data);
    java.nio.file.Path tmp = java.nio.file.Files.createTempFile(data, "rec", ".tmp");
    try (jdk.jfr.Recording r = new jdk.jfr.Recording()) {
      r.enable("jdk.CPULoad").withPeriod(java.time.Duration.ofMillis(100));
      r.start();
      Thread.sleep(300);
      r.dump(tmp);
    }
    recording = java.nio.file.Files.readAllBytes(tmp);
    java.nio.file.Files.delete(tmp);
    String file = store.saveRecording("jfr-1", "vm-42", recording);
    SavedSearch older = Graphs.saved("jfr-1", "vm-42");
    store.save(new SavedSearch("jfr-1", 500_000L, 560_000L, older.endReason(), older.settings(), older.graph(),
        older.series(), List.of(), List.of(), List.of(SavedSearch.Recording.kept("vm-42", file, recording.length,
        500_000L, 560_000L), SavedSearch.Recording.missing("vm-43", "cannot do dumping the JFR recording: target"
        + " exited"))));
    store.save(new SavedSearch("large-1", 500_000L, 560_000L, older.endReason(), older.settings(), Graphs.large("large-1"), List.of()));
    fixture = new ServiceFixture(data, null);
  }

  private static byte[] recording;

  @Test
  void aSearchsJfrRecordingIsAnAttachmentAndOneWithoutSaysWhy() throws Exception {
    HttpResponse<byte[]> jfr = fixture.http.send(java.net.http.HttpRequest.newBuilder(
        fixture.uri("/api/searches/jfr-1/export?format=jfr")).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertThat(jfr.statusCode()).isEqualTo(200);
    assertThat(jfr.headers().firstValue("content-type")).hasValue("application/octet-stream");
    assertThat(jfr.headers().firstValue("content-disposition")).hasValue("attachment; filename=\"jfr-1-vm-42.jfr\"");
    assertThat(jfr.body()).isEqualTo(recording);
    JsonObject one = new JsonObject(fixture.get("/api/searches/jfr-1").body());
    assertThat(one.getJsonArray("recordings").getJsonObject(0).getString("file")).isEqualTo("jfr-1.vm-42.jfr");
    assertThat(one.getJsonArray("recordings").getJsonObject(1).getString("error")).contains("target exited");
    assertThat(new JsonObject(fixture.get("/api/searches").body()).getJsonArray("searches").stream()
        .map(o -> (JsonObject) o).filter(o -> o.getString("searchId").equals("jfr-1")).findFirst().orElseThrow()
        .getJsonArray("recordings")).hasSize(2);
    assertError(fixture.get("/api/searches/jfr-1/export?format=jfr&daemon=vm-43"), 404,
        "search 'jfr-1' kept no JFR recording of vm-43: cannot do dumping the JFR recording: target exited");
    assertError(fixture.get("/api/searches/hot-1/export?format=jfr"), 404, "search 'hot-1' kept no JFR recording");
    assertError(fixture.get("/api/searches/nope/export?format=jfr"), 404, "no search 'nope'");
  }

  @AfterAll
  void stop() throws Exception {
    fixture.close();
  }

  @Test
  void startingASearchChecksTheBodyAndNamesWhatIsWrong() throws Exception {
    assertError(fixture.post("/api/searches", "{not json"), 400, "malformed JSON body");
    assertError(fixture.post("/api/searches", "[1]"), 400, "must be a JSON object");
    assertError(fixture.post("/api/searches", "{\"daemons\": []}"), 400, "'daemons' must be a non-empty array");
    assertError(fixture.post("/api/searches", "{\"daemons\": [\"d\"], \"budget\": 0.7}"), 400,
        "'budget' must be a positive number up to 0.5, is 0.7");
    assertError(fixture.post("/api/searches", "{\"daemons\": [\"d\"], \"maxTimeSeconds\": \"long\"}"), 400, "'maxTimeSeconds' must be a number");
    assertError(fixture.post("/api/searches", "{\"daemons\": [\"d\"], \"colour\": 1}"), 400, "unknown field 'colour'");
    assertError(fixture.post("/api/searches", "{\"daemons\": [\"d\"], \"settings\": {\"search.nonsense\": 1}}"), 400,
        "unknown setting 'search.nonsense'");
    assertError(fixture.post("/api/searches", "{\"daemons\": [\"d\"], \"settings\": {\"cpu_bound.threshold\": \"high\"}}"), 400,
        "cpu_bound.threshold must be a number, is 'high'");
    assertError(fixture.post("/api/searches", "{\"daemons\": [\"vm-7\"]}"), 404, "unknown daemon 'vm-7'");
  }

  @Test
  void aSavedSearchIsListedShownAndExported() throws Exception {
    JsonObject list = new JsonObject(fixture.get("/api/searches").body());
    JsonObject entry = list.getJsonArray("searches").getJsonObject(0);
    assertThat(entry.getString("searchId")).isEqualTo("hot-1");
    assertThat(entry.getBoolean("running")).isFalse();
    assertThat(entry.getJsonArray("daemons").getList()).containsExactly("vm-42");
    assertThat(entry.getInteger("findings")).isEqualTo(1);

    JsonObject one = new JsonObject(fixture.get("/api/searches/hot-1").body());
    assertThat(one.getJsonObject("graph").getJsonArray("nodes")).hasSize(5);
    assertThat(one.getJsonObject("budget").getDouble("fraction")).isEqualTo(0.05);

    HttpResponse<String> json = fixture.get("/api/searches/hot-1/export?format=json");
    assertThat(json.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    assertThat(new JsonObject(json.body()).getString("format")).isEqualTo("bottlenose-search/1");
    assertThat(fixture.get("/api/searches/hot-1/export?format=dot").body()).startsWith("digraph shg").contains("spin()V");
    HttpResponse<String> svg = fixture.get("/api/searches/hot-1/export?format=svg");
    assertThat(svg.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("image/svg+xml"));
    assertThat(svg.body()).contains("<svg").contains("spin()V");
    assertError(fixture.get("/api/searches/hot-1/export?format=png"), 400,
        "'format' must be json, dot, svg, collapsed, speedscope, pprof or jfr, is 'png'");
    assertError(fixture.post("/api/searches/hot-1/stop", ""), 409, "search 'hot-1' has ended");

    JsonObject findings = new JsonObject(fixture.get("/api/searches/hot-1/findings").body());
    assertThat(findings.getBoolean("running")).isFalse();
    assertThat(findings.getBoolean("saved")).isTrue();
    assertThat(findings.getJsonArray("findings")).hasSize(1);
    JsonObject finding = findings.getJsonArray("findings").getJsonObject(0);
    assertThat(finding.getJsonArray("focus").getList()).contains(Graphs.HOT);
    assertThat(finding.getString("where")).isEqualTo("com.acme.Hot.spin()");
    assertThat(finding.getJsonObject("impact").getDouble("secondsPerSecond")).isPositive();
    assertThat(finding.getJsonObject("evidence").getString("text")).startsWith("cpu_inclusive ");
    assertThat(finding.getString("nextStep")).isNotBlank();

    JsonObject stacks = new JsonObject(fixture.get("/api/searches/hot-1/stacks?graph=cpu").body());
    assertThat(stacks.getString("daemonId")).isEqualTo("vm-42");
    assertThat(stacks.getLong("samples")).isEqualTo(5);
    assertThat(stacks.getJsonArray("frames").getJsonObject(1).getString("method")).isEqualTo(Graphs.HOT);
    assertError(fixture.get("/api/searches/hot-1/stacks?graph=sync"), 404, "kept no sync stacks");
    assertError(fixture.get("/api/searches/hot-1/stacks?graph=heap"), 400,
        "'graph' must be cpu, wait, sync, io or alloc, is 'heap'");

    // A finding's flame graph: its graph, only the stacks through its code.
    JsonObject flame = finding.getJsonObject("flame");
    assertThat(flame.getString("graph")).isEqualTo("cpu");
    assertThat(flame.getString("through")).isEqualTo(Graphs.HOT);
    assertThat(flame.getString("text")).isEqualTo("CPU samples through com.acme.Hot.spin()");
    JsonObject through = new JsonObject(fixture.get("/api/searches/hot-1/stacks?graph=cpu&through="
        + encode(Graphs.HOT)).body());
    assertThat(through.getString("through")).isEqualTo(Graphs.HOT);
    assertThat(through.getLong("samples")).isEqualTo(5);
    assertThat(through.getJsonArray("frames")).hasSize(2);
    JsonObject elsewhere = new JsonObject(fixture.get("/api/searches/hot-1/stacks?through="
        + encode("/Code/org.other")).body());
    assertThat(elsewhere.getLong("samples")).isZero();
    assertThat(elsewhere.getJsonArray("frames")).isEmpty();
    assertError(fixture.get("/api/searches/hot-1/stacks?through=" + encode("/Threads/main")), 400,
        "'through' names a package, a class or a method");
    assertError(fixture.get("/api/searches/hot-1/stacks?through=%2FCode"), 400, "all the code");
    assertError(fixture.get("/api/searches/hot-1/stacks?through=" + encode("/Cod/x")), 400,
        "'through' must be a /Code path or a Java name");
    assertError(fixture.get("/api/searches/hot-1/stacks?through="), 400, "through");
    assertError(fixture.get("/api/searches/hot-1/stacks?through=com.acme.Hot.spin"), 400,
        "no daemon of vm-42 answers");

    JsonObject node = new JsonObject(fixture.get("/api/searches/hot-1/nodes/2").body());
    assertThat(node.getJsonArray("parents").getList()).containsExactly(1);
    assertThat(node.getJsonArray("children").getList()).containsExactly(3);
    assertThat(node.getString("unit")).as("the words the value is written with, from the server").isEqualTo("s per second");
    assertError(fixture.get("/api/searches/hot-1/nodes/9"), 404, "has no node 9");
    assertError(fixture.get("/api/searches/hot-1/nodes/x"), 400,
        "'nodeId' must be a non-negative whole number up to 2147483647, is 'x'");
  }

  @Test
  void theSampledStacksAreExportedForProfilersTools() throws Exception {
    HttpResponse<String> collapsed = fixture.get("/api/searches/hot-1/export?format=collapsed&graph=cpu&daemon=vm-42");
    assertThat(collapsed.statusCode()).isEqualTo(200);
    assertThat(collapsed.headers().firstValue("content-type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
    assertThat(collapsed.body()).isEqualTo("com.acme.Hot.spin() 5\n");
    HttpResponse<String> speedscope = fixture.get("/api/searches/hot-1/export?format=speedscope");
    assertThat(speedscope.headers().firstValue("content-type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    JsonObject file = new JsonObject(speedscope.body());
    assertThat(file.getString("$schema")).isEqualTo("https://www.speedscope.app/file-format-schema.json");
    assertThat(file.getJsonArray("profiles").getJsonObject(0).getLong("endValue")).isEqualTo(5);
    HttpResponse<byte[]> pprof = fixture.http.send(java.net.http.HttpRequest.newBuilder(
        fixture.uri("/api/searches/hot-1/export?format=pprof")).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertThat(pprof.statusCode()).isEqualTo(200);
    assertThat(pprof.headers().firstValue("content-type")).hasValue("application/octet-stream");
    assertThat(pprof.headers().firstValue("content-disposition"))
        .hasValue("attachment; filename=\"hot-1-vm-42-cpu.pb.gz\"");
    assertThat(pprof.body()).startsWith((byte) 0x1f, (byte) 0x8b);

    assertError(fixture.get("/api/searches/hot-1/export?format=pprof&graph=sync"), 404,
        "search 'hot-1' kept no sync stacks of vm-42: they are kept when the search ends");
    assertError(fixture.get("/api/searches/hot-1/export?format=collapsed&daemon=vm-7"), 404,
        "kept no cpu stacks of vm-7");
    assertError(fixture.get("/api/searches/hot-1/export?format=speedscope&daemon=vm-7"), 404, "kept no stacks of vm-7");
    assertError(fixture.get("/api/searches/hot-1/export?format=collapsed&graph=heap"), 400,
        "'graph' must be cpu, wait, sync, io or alloc, is 'heap'");
    assertError(fixture.get("/api/searches/nope/export?format=collapsed"), 404, "no search 'nope'");
  }

  @Test
  void unknownThingsAre404AndEndedSearchesCannotBeStopped() throws Exception {
    assertError(fixture.get("/api/searches/nope"), 404, "no search 'nope'");
    assertError(fixture.get("/api/searches/..%2Fetc"), 404, "no search");
    assertError(fixture.post("/api/searches/nope/stop", ""), 404, "no running search 'nope'");
    assertError(fixture.get("/api/nothing"), 404, "no API endpoint GET /api/nothing");
    assertError(fixture.delete("/api/plots/p9"), 404, "no live plot 'p9'");
    assertError(fixture.post("/api/plots", "{\"daemonId\": \"vm-1\", \"metric\": \"cpu\"}"), 404, "unknown daemon 'vm-1'");
    assertError(fixture.post("/api/plots", "{\"metric\": \"cpu\"}"), 400, "'daemonId' must be a non-empty string");
    assertError(fixture.post("/api/jvms", "{\"pid\": -3}"), 400, "'pid' must be a positive whole number");
    assertThat(new JsonObject(fixture.get("/api/jvms").body()).getJsonArray("jvms")).isEmpty();
  }

  @Test
  void metricTextIsCheckedWithLineAndColumn() throws Exception {
    JsonObject bad = new JsonObject(fixture.post("/api/metrics/check", "{\"text\": \"metric x {\\n  unit fraction\\n}\"}").body());
    assertThat(bad.getBoolean("ok")).isFalse();
    assertThat(bad.getJsonArray("errors").getJsonObject(0).getInteger("line")).isEqualTo(1);
    String good = "metric my_cpu {\\n description \\\"x\\\"\\n unit fraction\\n accumulates cpu_time\\n refine /Code exclusive\\n"
        + " combine sum\\n report fraction\\n}";
    JsonObject ok = new JsonObject(fixture.post("/api/metrics/check", "{\"text\": \"" + good + "\"}").body());
    assertThat(ok.getBoolean("ok")).as(ok.encode()).isTrue();
    assertThat(ok.getJsonArray("metrics").getList()).containsExactly("my_cpu");
    HttpResponse<String> add = fixture.post("/api/metrics", "{\"text\": \"metric x {}\"}");
    assertThat(add.statusCode()).isEqualTo(400);
    assertThat(new JsonObject(add.body()).getJsonArray("errors")).isNotEmpty();
    assertThat(new JsonObject(fixture.get("/api/metrics").body()).getJsonArray("metrics").stream()
        .map(o -> ((JsonObject) o).getString("name"))).contains("cpu_inclusive", "sync_wait");
    assertThat(new JsonObject(fixture.get("/api/metrics").body()).getJsonArray("metrics").stream()
        .map(o -> (JsonObject) o).filter(m -> List.of("cpu_inclusive", "calls", "io_bytes").contains(m.getString("name")))
        .map(m -> m.getString("name") + ": " + m.getString("unitWords")))
        .as("each metric's unit in words").containsExactlyInAnyOrder("cpu_inclusive: s per second", "calls: per second",
            "io_bytes: bytes per second");
  }

  @Test
  void aFormulaOfThousandsOfOperatorsIsAnErrorAtItsPlaceNotA500() throws Exception {
    // Twenty thousand operators without parentheses overflowed the checker's stack: a 500 naming java.lang.StackOverflowError.
    String text = "metric long_chain {\n description \"x\"\n unit bytes/count\n value io_bytes" + " / io_ops".repeat(20_000)
        + "\n combine avg\n}";
    JsonObject check = new JsonObject(fixture.post("/api/metrics/check", new JsonObject().put("text", text).encode()).body());
    assertThat(check.getBoolean("ok")).isFalse();
    assertThat(check.getJsonArray("errors").getJsonObject(0).getString("message")).isEqualTo(
        "more than 256 operators in one clause; split the formula into several metrics");
    assertThat(check.getJsonArray("errors").getJsonObject(0).getInteger("line")).isEqualTo(4);
    assertError(fixture.post("/api/metrics", new JsonObject().put("text", text).encode()), 400, "more than 256 operators");
  }

  @Test
  void webJarsAreServed() throws Exception {
    HttpResponse<String> d3 = fixture.get("/webjars/d3/7.9.0/dist/d3.min.js");
    assertThat(d3.statusCode()).isEqualTo(200);
    assertThat(d3.body()).contains("d3js.org");
  }

  @Test
  void aPortInUseIsRefusedNamingIt() {
    int port = fixture.service.port();
    Throwable failure = WebService.start(fixture.vertx, new dev.bottlenose.web.cluster.Daemons(fixture.vertx, Path.of("none.jar")),
        new WebService.Options("127.0.0.1", port, null, data)).toCompletionStage().toCompletableFuture()
        .handle((ok, e) -> e).join();
    assertThat(failure).hasMessageContaining("cannot serve on 127.0.0.1:" + port).hasMessageContaining("--port 0");
  }

  @Test
  void aSearchsViewIsItsGraphLaidOutAsThePageDrawsIt() throws Exception {
    HttpResponse<String> answer = fixture.get("/api/searches/hot-1/view");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    JsonObject view = new JsonObject(answer.body());
    assertThat(view.getString("searchId")).isEqualTo("hot-1");
    assertThat(view.getBoolean("running")).isFalse();
    assertThat(view.getString("show")).as("a small graph: every node").isEqualTo("all");
    List<JsonObject> boxes = objects(view.getJsonArray("boxes"));
    assertThat(boxes).extracting(b -> b.getInteger("id")).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
    JsonObject hot = boxes.stream().filter(b -> b.getInteger("id") == 3).findFirst().orElseThrow();
    assertThat(hot.getString("label")).isEqualTo("cpu_bound \u00b7 Hot.spin()");
    assertThat(hot.getString("state")).isEqualTo("true");
    assertThat(hot.getJsonArray("focus").getList()).containsExactly(Graphs.HOT);
    assertThat(hot.getString("unit")).isEqualTo("s per second");
    assertThat(hot.getString("title")).contains("true  0.8 s per second (threshold 0.3)");
    assertThat(hot.getDouble("x") + hot.getDouble("width")).isLessThanOrEqualTo(view.getDouble("width"));
    assertThat(view.getJsonObject("legend").getJsonObject("states").getString("true")).isEqualTo(NodeState.TRUE.colour());
    List<JsonObject> lines = objects(view.getJsonArray("lines"));
    assertThat(lines).hasSize(4).allMatch(l -> l.getJsonArray("points").size() >= 2);
    JsonObject toHot = lines.stream().filter(l -> l.getString("to").equals("3")).findFirst().orElseThrow();
    assertThat(toHot.getString("axis")).isEqualTo("where");
    assertThat(toHot.getJsonArray("points").getJsonArray(toHot.getJsonArray("points").size() - 1).getDouble(0)).isEqualTo(hot.getDouble("x"));

    JsonObject collapsed = new JsonObject(fixture.get("/api/searches/hot-1/view?collapsed=1").body());
    assertThat(objects(collapsed.getJsonArray("boxes"))).extracting(b -> b.getInteger("id")).containsExactlyInAnyOrder(0, 1, 4);
    JsonObject cpu = objects(collapsed.getJsonArray("boxes")).stream().filter(b -> b.getInteger("id") == 1).findFirst().orElseThrow();
    assertThat(cpu.getBoolean("collapsed")).isTrue();
    assertThat(cpu.getInteger("hidden")).isEqualTo(2);
    JsonObject paths = new JsonObject(fixture.get("/api/searches/hot-1/view?to=2").body());
    assertThat(paths.getString("show")).isEqualTo("nodes");
    assertThat(objects(paths.getJsonArray("boxes"))).extracting(b -> b.getInteger("id")).containsExactly(0, 1, 2);

    assertError(fixture.get("/api/searches/hot-1/view?show=true&to=3"), 400, "'to' names the nodes of show=nodes");
    assertError(fixture.get("/api/searches/hot-1/view?show=nodes"), 400, "'to' names the nodes of show=nodes");
    assertError(fixture.get("/api/searches/hot-1/view?collapsed=1,x"), 400, "'collapsed' must be");
    assertError(fixture.get("/api/searches/hot-1/view?show=some"), 400, "'show' must be");
    assertError(fixture.get("/api/searches/hot-1/view?depth=-1"), 400, "'depth' must be");
    assertError(fixture.get("/api/searches/nope/view"), 404, "no search 'nope'");
  }

  @Test
  void aLargeSearchsViewGroupsFalseLeavesUntilOpened() throws Exception {
    JsonObject all = new JsonObject(fixture.get("/api/searches/large-1/view?show=all").body());
    int nodes = all.getInteger("nodes");
    assertThat(nodes).isGreaterThanOrEqualTo(500);
    assertThat(all.getInteger("drawnNodes") + all.getInteger("groupedNodes")).isEqualTo(nodes);
    JsonObject group = objects(all.getJsonArray("boxes")).stream().filter(b -> b.containsKey("members")).findFirst().orElseThrow();
    assertThat(group.getString("label")).startsWith(group.getJsonArray("members").size() + " false: ");
    assertThat(group.getString("key")).isEqualTo("group-" + group.getInteger("parent"));
    JsonObject opened = new JsonObject(fixture.get("/api/searches/large-1/view?show=all&open=" + group.getInteger("parent")).body());
    assertThat(opened.getInteger("drawnNodes")).isEqualTo(all.getInteger("drawnNodes") + group.getJsonArray("members").size());
    JsonObject shallow = new JsonObject(fixture.get("/api/searches/large-1/view?show=all&depth=1&expanded=1").body());
    assertThat(shallow.getInteger("drawnNodes")).isLessThan(30);
    assertThat(all.getDouble("width")).as("px").isLessThan(2_030);
  }

  /**
   * The SVG export with view options draws the view {@code /view} lays out for the same options, box for box: the
   * Search page's SVG link passes the options the page shows the graph with.
   */
  @Test
  void anSvgExportDrawsTheViewOfTheSameOptions() throws Exception {
    for (String[] c : new String[][] {{"hot-1", "collapsed=1"}, {"hot-1", "to=2"}, {"large-1", "show=all&depth=1&expanded=1"},
        {"large-1", "show=true"}}) {
      String id = c[0];
      String options = c[1];
      HttpResponse<String> svg = fixture.get("/api/searches/" + id + "/export?format=svg&" + options);
      assertThat(svg.statusCode()).as(svg.body()).isEqualTo(200);
      assertThat(svg.headers().firstValue("Content-Type").orElse("")).startsWith("image/svg+xml");
      JsonObject view = new JsonObject(fixture.get("/api/searches/" + id + "/view?" + options).body());
      Map<String, List<Double>> drawn = svgBoxes(svg.body());
      assertThat(drawn).as(id + " " + options).isEqualTo(viewBoxes(view));
      assertThat(svg.body()).contains("width=\"" + (int) Math.ceil(view.getDouble("width")) + "\" height=\""
          + (int) Math.ceil(view.getDouble("height")) + "\"");
      assertThat(drawn.keySet()).as("not the view a user sees first: " + id + " " + options)
          .isNotEqualTo(svgBoxes(fixture.get("/api/searches/" + id + "/export?format=svg").body()).keySet());
    }
    assertThat(svgBoxes(fixture.get("/api/searches/hot-1/export?format=svg").body()))
        .isEqualTo(viewBoxes(new JsonObject(fixture.get("/api/searches/hot-1/view").body())));
    assertError(fixture.get("/api/searches/hot-1/export?format=json&collapsed=1"), 400, "format json takes none of them");
    assertError(fixture.get("/api/searches/hot-1/export?format=svg&show=true&to=3"), 400, "'to' names the nodes of show=nodes");
    assertError(fixture.get("/api/searches/hot-1/export?format=svg&collapsed=x"), 400, "'collapsed' must be");
  }

  /** An SVG export's boxes: key → x, y, width, height. */
  private static Map<String, List<Double>> svgBoxes(String svg) {
    Matcher m = Pattern.compile("<g class=\"node [^\"]*\" data-id=\"([^\"]+)\" transform=\"translate\\(([^,]+),([^)]+)\\)\">\n"
        + "<title>[^<]*</title>\n<rect width=\"([^\"]+)\" height=\"([^\"]+)\"").matcher(svg);
    Map<String, List<Double>> boxes = new TreeMap<>();
    while (m.find()) {
      boxes.put(m.group(1), List.of(Double.valueOf(m.group(2)), Double.valueOf(m.group(3)), Double.valueOf(m.group(4)),
          Double.valueOf(m.group(5))));
    }
    assertThat(boxes).as("boxes in the SVG").isNotEmpty();
    return boxes;
  }

  /** A view's boxes: key → x, y, width, height. */
  private static Map<String, List<Double>> viewBoxes(JsonObject view) {
    Map<String, List<Double>> boxes = new TreeMap<>();
    for (JsonObject b : objects(view.getJsonArray("boxes"))) {
      boxes.put(b.getString("key"), List.of(b.getDouble("x"), b.getDouble("y"), b.getDouble("width"), b.getDouble("height")));
    }
    return boxes;
  }

  private static List<JsonObject> objects(io.vertx.core.json.JsonArray array) {
    return array.stream().map(o -> (JsonObject) o).toList();
  }

  private static String encode(String text) {
    return java.net.URLEncoder.encode(text, java.nio.charset.StandardCharsets.UTF_8);
  }

  static void assertError(HttpResponse<String> response, int status, String message) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(new JsonObject(response.body()).getString("error")).contains(message);
  }
}
