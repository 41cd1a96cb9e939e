package dev.bottlenose.bus.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.bus.protocol.DaemonEvents.Announcement;
import dev.bottlenose.bus.protocol.DaemonEvents.Changes;
import dev.bottlenose.bus.protocol.DaemonEvents.Cost;
import dev.bottlenose.bus.protocol.DaemonEvents.MetricValue;
import dev.bottlenose.bus.protocol.DaemonEvents.ProbeValue;
import dev.bottlenose.bus.protocol.DaemonEvents.Sample;
import dev.bottlenose.bus.protocol.DaemonEvents.SourceValue;
import dev.bottlenose.bus.protocol.DaemonEvents.Totals;
import dev.bottlenose.bus.protocol.DaemonReplies.ActiveMetric;
import dev.bottlenose.bus.protocol.DaemonReplies.CallGraph;
import dev.bottlenose.bus.protocol.DaemonReplies.ClassBytes;
import dev.bottlenose.bus.protocol.DaemonReplies.Daemons;
import dev.bottlenose.bus.protocol.DaemonReplies.GraphChild;
import dev.bottlenose.bus.protocol.DaemonReplies.Hold;
import dev.bottlenose.bus.protocol.DaemonReplies.HotMethod;
import dev.bottlenose.bus.protocol.DaemonReplies.Interval;
import dev.bottlenose.bus.protocol.DaemonReplies.Ledger;
import dev.bottlenose.bus.protocol.DaemonReplies.MetricDisabled;
import dev.bottlenose.bus.protocol.DaemonReplies.MetricError;
import dev.bottlenose.bus.protocol.DaemonReplies.MetricInfo;
import dev.bottlenose.bus.protocol.DaemonReplies.MetricPlan;
import dev.bottlenose.bus.protocol.DaemonReplies.MetricRef;
import dev.bottlenose.bus.protocol.DaemonReplies.MetricsAdded;
import dev.bottlenose.bus.protocol.DaemonReplies.MetricsList;
import dev.bottlenose.bus.protocol.DaemonReplies.Probe;
import dev.bottlenose.bus.protocol.DaemonReplies.RemovedProbe;
import dev.bottlenose.bus.protocol.DaemonReplies.Resource;
import dev.bottlenose.bus.protocol.DaemonReplies.Resources;
import dev.bottlenose.bus.protocol.DaemonReplies.Source;
import dev.bottlenose.bus.protocol.DaemonReplies.Status;
import dev.bottlenose.bus.protocol.DaemonReplies.ValuesHistory;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class DaemonRepliesTest {
  private static final Totals TOTALS = new Totals(10, 2000, 0, 4, 800, 0, 4.0, 800.0, 0.0);
  private static final Sample SAMPLE = new Sample(1_700_000_000_000L, 1_000_000_000L,
      List.of(new ProbeValue(1, "/Code/com.acme/Sim/step()V", "call_count", TOTALS)),
      List.of(new SourceValue(2, Map.of("event", "cpu_sample", "code", "/Code/com.acme"), TOTALS, 1_699_999_999_500L),
          new SourceValue(3, Map.of("event", "io"), TOTALS, null)),
      new Cost(100, 2000, 30, 0, 1_000_000, null, 12L, null, 40_000_000L, 7_000_000L), Map.of("gc.count", 2L, "classes", 1L),
      List.of(new MetricValue(7, "cpu", "</Code/com.acme>", 0.25, "fraction", 40.0, 0.001, 0.002, null, 1L),
          new MetricValue(8, "calls", "<>", null, "per_second", null, null, null, "no reading yet", null)));

  @Test
  void everyReplyAndEventReadsBackWhatItWrites() {
    Announcement daemon = new Announcement("h-42", 42, "com.acme.Sim", "21.0.2", "h", "RUNNING", true, "node-1",
        null, null);
    roundTrip(daemon, Announcement::toJson, Announcement::from);
    roundTrip(daemon.ended("TARGET_EXITED", "the target exited").withEvent(DaemonEvents.EXITED), Announcement::toJson,
        Announcement::from);
    roundTrip(new Daemons(List.of(daemon)), Daemons::toJson, Daemons::from);
    roundTrip(new Changes(List.of(new JsonObject().put("op", "added").put("path", "/Code/com.acme"))), Changes::toJson,
        Changes::from);
    roundTrip(SAMPLE, Sample::toJson, Sample::from);
    roundTrip(new ValuesHistory(List.of(SAMPLE, SAMPLE)), ValuesHistory::toJson, ValuesHistory::from);
    Source source = new Source(2, Map.of("event", "cpu_sample"), "view", 5);
    Status running = new Status("RUNNING", 42, "com.acme.Sim", "21", 1000, "limited", new JsonObject().put("probeNanos", 20),
        3, List.of(new MetricRef(7, "cpu", "<>")), List.of(source), 12, 340, new JsonObject().put("events", 5),
        new JsonObject().put("probes", 3), null, "node-1", List.of("node-2"));
    roundTrip(running, Status::toJson, Status::from);
    Status ended = new Status("TARGET_EXITED", 42, "com.acme.Sim", "21", 1000, null, new JsonObject(), 0, List.of(),
        List.of(), 12, 340, new JsonObject(), null, "the target exited", "node-1", List.of());
    roundTrip(ended, Status::toJson, Status::from);
    roundTrip(source, Source::toJson, Source::from);
    roundTrip(new Probe(1, "/Code/a/B/m()V", "call_site", "/Code/a/C/n()V", "me", 5, 300), Probe::toJson, Probe::from);
    roundTrip(new Probe(1, "/Code/a/B/m()V", "call_count", null, "me", 5, 300), Probe::toJson, Probe::from);
    roundTrip(new RemovedProbe(1, "/Code/a/B/m()V", "a.B", 300, true), RemovedProbe::toJson, RemovedProbe::from);
    ActiveMetric active = new ActiveMetric(7, "cpu", "</Code/a>", "fraction", "search 1", 3, 1, Map.of("m", 3), 0, Map.of("com.acme.Batch", "its loop has been running for 9 s"),
        new JsonObject().put("items", new io.vertx.core.json.JsonArray()), new JsonObject().put("fixed", 0.0), 0.01, 5);
    roundTrip(active, ActiveMetric::toJson, ActiveMetric::from);
    roundTrip(new MetricDisabled(3, 1, 2, List.of("gone"), 7, "cpu", "<>"), MetricDisabled::toJson, MetricDisabled::from);
    roundTrip(new MetricPlan("cpu", "<>", "fraction", new JsonObject().put("items", 1), new JsonObject()),
        MetricPlan::toJson, MetricPlan::from);
    roundTrip(new MetricsList(List.of(new MetricInfo("cpu", "CPU time", "fraction", false, "built-in")), List.of(active)),
        MetricsList::toJson, MetricsList::from);
    roundTrip(new MetricsAdded("a.metrics", List.of("x"), List.of(new MetricError("a.metrics", 3, 7, "no such event"))),
        MetricsAdded::toJson, MetricsAdded::from);
    roundTrip(new Ledger(List.of(new JsonObject().put("probeId", 1)), List.of()), Ledger::toJson, Ledger::from);
    roundTrip(new Interval(250), Interval::toJson, Interval::from);
    roundTrip(new ClassBytes("a.B", 1234, "ab12"), ClassBytes::toJson, ClassBytes::from);
    roundTrip(new DaemonReplies.CodePath("a.B::m", ResourcePath.parse("/Code/a/B/m()V")), DaemonReplies.CodePath::toJson,
        DaemonReplies.CodePath::from);
    roundTrip(new CallGraph("/Code", 100, 100, List.of(new GraphChild(ResourcePath.parse("/Code/a"), 60, "contains")),
        List.of(new HotMethod(ResourcePath.parse("/Code/a/B/m()V"), 30, 50)),
        List.of(new HotMethod(ResourcePath.parse("/Code/a/B/m()V"), 40, 50)), List.of(), List.of()), CallGraph::toJson,
        CallGraph::from);
    roundTrip(new CallGraph("/Code/a/B", 100, 60, List.of(), List.of(), List.of(),
        List.of(new GraphChild(ResourcePath.parse("/Code/c/D/run()V"), 60, "caller")),
        List.of(new GraphChild(ResourcePath.parse("/Code/e/F/g()V"), 20, "callee"))), CallGraph::toJson, CallGraph::from);
    roundTrip(new Resources(List.of(new Resource(ResourcePath.parse("/Code/a"), "package", Map.of("tool", "true")))),
        Resources::toJson, Resources::from);
    roundTrip(new Hold("h-42", List.of("node-1")), Hold::toJson, Hold::from);
  }

  /** The JSON is as the session wrote it before the records: nulls kept where the pages look for them, absent fields left out. */
  @Test
  void theJsonKeepsItsFormOnTheWire() {
    JsonObject sample = SAMPLE.toJson();
    assertThat(sample.fieldNames()).containsExactly("atMillis", "intervalNanos", "probes", "sources", "cost", "vm",
        "metrics");
    assertThat(sample.getJsonObject("cost").encode()).isEqualTo("{\"probeNanos\":100,\"agentCpuNanos\":2000,"
        + "\"eventNanos\":30,\"retransformNanos\":0,\"processCpuNanos\":1000000,\"ioCalls\":12,\"fraction\":null,"
        + "\"daemonCpuNanos\":40000000,\"toolJitNanos\":7000000}");
    assertThat(sample.getJsonObject("vm").fieldNames()).containsExactly("classes", "gc.count");
    JsonObject unevaluated = sample.getJsonArray("metrics").getJsonObject(1);
    assertThat(unevaluated.containsKey("value")).isTrue();
    assertThat(unevaluated.getValue("value")).isNull();
    assertThat(unevaluated.containsKey("dataThroughMillis")).isFalse();
    assertThat(sample.getJsonArray("sources").getJsonObject(1).containsKey("throughMillis")).isFalse();
    assertThat(sample.getJsonArray("probes").getJsonObject(0).fieldNames()).containsExactly("probeId", "method", "kind",
        "count", "nanos", "bytes", "countDelta", "nanosDelta", "bytesDelta", "countPerSecond", "nanosPerSecond",
        "bytesPerSecond");
    JsonObject ended = new Status("TARGET_EXITED", 1, null, null, 0, null, new JsonObject(), 0, List.of(), List.of(), 0,
        0, new JsonObject(), null, null, "n", List.of()).toJson();
    assertThat(ended.containsKey("endReason")).isTrue();
    assertThat(ended.containsKey("agent")).isFalse();
    assertThat(new Announcement("d", 1, "M", "21", "h", "RUNNING", false, null, null, null).toJson().encode())
        .isEqualTo("{\"daemonId\":\"d\",\"pid\":1,\"mainClass\":\"M\",\"javaVersion\":\"21\",\"host\":\"h\","
            + "\"state\":\"RUNNING\",\"held\":false}");
    // a sample that crossed the cluster arrives with its whole numbers as Integer and doubles as Double
    assertThat(Sample.from(new JsonObject(sample.encode()))).isEqualTo(SAMPLE);
  }

  @Test
  void aBadFieldIsNamedWithItsValueNestedOnesWithTheirPlace() {
    JsonObject sample = SAMPLE.toJson();
    sample.getJsonArray("metrics").getJsonObject(1).put("value", "high");
    assertBad(() -> Sample.from(sample), "metrics[1].value", "'metrics[1].value' must be a number, not \"high\"");
    assertBad(() -> Sample.from(SAMPLE.toJson().put("probes", "none")), "probes", "'probes' must be an array, not \"none\"");
    assertBad(() -> Sample.from(SAMPLE.toJson().put("cost", 3)), "cost", "'cost' must be an object, not 3");
    assertBad(() -> Sample.from(sampleWithout("cost")), "cost",
        "'cost' is missing: it must be an object");
    JsonObject vm = SAMPLE.toJson();
    vm.getJsonObject("vm").put("gc.count", 1.5);
    assertBad(() -> Sample.from(vm), "vm.gc.count", "'vm.gc.count' must be a whole number, not 1.5");
    assertBad(() -> Announcement.from(new JsonObject().put("pid", 3)), "daemonId",
        "'daemonId' is missing: it must be text");
    assertThat(Announcement.fromOrNull(new JsonObject().put("something", "else"))).isNull();
    assertBad(() -> Status.from(new JsonObject().put("state", "RUNNING").put("pid", "x")), "pid",
        "'pid' must be a whole number, not \"x\"");
    assertBad(() -> Hold.from(new JsonObject().put("holders", List.of("a", 3))), "holders[1]",
        "'holders[1]' must be text, not 3");
    assertBad(() -> Daemons.from(new JsonObject().put("daemons", List.of(Map.of("daemonId", 4)))), "daemons[0].daemonId",
        "'daemons[0].daemonId' must be text, not 4");
    assertThatThrownBy(() -> CallGraph.from(new JsonObject().put("children", List.of(Map.of("path", "Code")))))
        .isInstanceOf(BadField.class).hasMessageStartingWith("'children[0].path' must be a resource path");
    assertBad(() -> Interval.from(new JsonObject()), "intervalMillis", "'intervalMillis' is missing: it must be a whole number");
    assertBad(() -> MetricsList.from(new JsonObject().put("active", List.of(Map.of("metric", "cpu")))),
        "active[0].metricId", "'active[0].metricId' is missing: it must be a whole number");
  }

  @Test
  void theRecordingIsABufferWithItsTimesInTheHeaders() {
    DaemonReplies.Recording r = new DaemonReplies.Recording(io.vertx.core.buffer.Buffer.buffer(new byte[] {'F', 'L', 'R', 0}),
        1_000L, 2_000L);
    io.vertx.core.MultiMap headers = r.replyOptions().getHeaders();
    assertThat(DaemonReplies.Recording.from(r.bytes(), headers)).isEqualTo(r);
    assertThat(DaemonReplies.Recording.from(r.bytes(), null).recordingStartMillis()).isZero();
    assertThatThrownBy(() -> DaemonReplies.Recording.from(new JsonObject(), headers)).isInstanceOf(BadField.class)
        .hasMessage("'body' must be the recording's bytes (a buffer), not \"JsonObject\"");
    headers.set(DaemonReplies.Recording.START_HEADER, "soon");
    assertThatThrownBy(() -> DaemonReplies.Recording.from(r.bytes(), headers)).isInstanceOf(BadField.class)
        .hasMessage("'recordingStartMillis' must be a whole number, not \"soon\"");
  }

  private static JsonObject sampleWithout(String field) {
    JsonObject o = SAMPLE.toJson();
    o.remove(field);
    return o;
  }

  private static <T> void roundTrip(T value, Function<T, JsonObject> write, Function<Object, T> read) {
    assertThat(read.apply(write.apply(value))).isEqualTo(value);
    assertThat(read.apply(new JsonObject(write.apply(value).encode()))).as("after the cluster's encoding").isEqualTo(value);
    assertThat(write.apply(read.apply(new JsonObject(write.apply(value).encode()))).encode())
        .isEqualTo(write.apply(value).encode());
  }

  private static void assertBad(org.assertj.core.api.ThrowableAssert.ThrowingCallable read, String field,
      String message) {
    assertThatThrownBy(read).isInstanceOfSatisfying(BadField.class, e -> {
      assertThat(e.field()).isEqualTo(field);
      assertThat(e).hasMessage(message);
    });
  }
}
