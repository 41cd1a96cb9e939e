package dev.bottlenose.bus.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.bus.protocol.DaemonRequests.CallGraph;
import dev.bottlenose.bus.protocol.DaemonRequests.ClassBytes;
import dev.bottlenose.bus.protocol.DaemonRequests.DisableProbe;
import dev.bottlenose.bus.protocol.DaemonRequests.EnableProbe;
import dev.bottlenose.bus.protocol.DaemonRequests.Hold;
import dev.bottlenose.bus.protocol.DaemonRequests.Interval;
import dev.bottlenose.bus.protocol.DaemonRequests.MetricDisable;
import dev.bottlenose.bus.protocol.DaemonRequests.MetricEnable;
import dev.bottlenose.bus.protocol.DaemonRequests.MetricPlan;
import dev.bottlenose.bus.protocol.DaemonRequests.MetricsAdd;
import dev.bottlenose.bus.protocol.DaemonRequests.Recording;
import dev.bottlenose.bus.protocol.DaemonRequests.Resources;
import dev.bottlenose.bus.protocol.DaemonRequests.Unwatch;
import dev.bottlenose.bus.protocol.DaemonRequests.ValuesHistory;
import dev.bottlenose.bus.protocol.DaemonRequests.Watch;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DaemonRequestsTest {
  private static final Focus STEP = Focus.parse("</Code/com.acme/Sim/step()V, /Threads/main>");

  @Test
  void everyRequestReadsBackWhatItWrites() {
    assertThat(Resources.from(new Resources(ResourcePath.parse("/Code/com.acme"), 2).toJson()))
        .isEqualTo(new Resources(ResourcePath.parse("/Code/com.acme"), 2));
    assertThat(Resources.from(new Resources(null, -1).toJson())).isEqualTo(new Resources(null, -1));
    assertThat(DaemonRequests.CodePath.from(new DaemonRequests.CodePath("com.acme.Sim::step").toJson()))
        .isEqualTo(new DaemonRequests.CodePath("com.acme.Sim::step"));
    EnableProbe enable = new EnableProbe(STEP, "call_site", "/Code/com.acme/Sim/fly()V", "consultant");
    assertThat(EnableProbe.from(enable.toJson())).isEqualTo(enable);
    assertThat(EnableProbe.from(new EnableProbe(STEP, "call_count", null, null).toJson()).callee()).isNull();
    assertThat(DisableProbe.from(new DisableProbe(7).toJson())).isEqualTo(new DisableProbe(7));
    Watch watch = new Watch(Map.of("event", "cpu_sample", "code", "/Code/com.acme"), "view");
    assertThat(Watch.from(watch.toJson())).isEqualTo(watch);
    assertThat(Unwatch.from(new Unwatch(3).toJson())).isEqualTo(new Unwatch(3));
    MetricEnable metric = new MetricEnable("cpu", STEP, "search 1", 20L);
    assertThat(MetricEnable.from(metric.toJson())).isEqualTo(metric);
    assertThat(MetricEnable.from(new MetricEnable("cpu", Focus.WHOLE_PROGRAM, null, null).toJson()))
        .isEqualTo(new MetricEnable("cpu", Focus.WHOLE_PROGRAM, null, null));
    assertThat(MetricPlan.from(new MetricPlan("calls", STEP).toJson())).isEqualTo(new MetricPlan("calls", STEP));
    assertThat(MetricDisable.from(new MetricDisable(9).toJson())).isEqualTo(new MetricDisable(9));
    assertThat(MetricsAdd.from(new MetricsAdd("a.metrics", "metric x {}").toJson()))
        .isEqualTo(new MetricsAdd("a.metrics", "metric x {}"));
    assertThat(Hold.from(new Hold(false).toJson())).isEqualTo(new Hold(false));
    assertThat(Interval.from(new Interval(250L).toJson())).isEqualTo(new Interval(250L));
    assertThat(Interval.from(new Interval(null).toJson())).isEqualTo(new Interval(null));
    assertThat(ValuesHistory.from(new ValuesHistory(5).toJson())).isEqualTo(new ValuesHistory(5));
    assertThat(ClassBytes.from(new ClassBytes("com.acme.Sim").toJson())).isEqualTo(new ClassBytes("com.acme.Sim"));
    CallGraph graph = new CallGraph(ResourcePath.parse("/Code/com.acme/Sim"), 10, "io");
    assertThat(CallGraph.from(graph.toJson())).isEqualTo(graph);
    CallGraph children = new CallGraph(ResourcePath.parse("/Code/com.acme/Sim"), 10, "io", Set.of(CallGraph.Part.CHILDREN));
    assertThat(children.toJson().getJsonArray("parts")).containsExactly("children");
    assertThat(CallGraph.from(children.toJson())).isEqualTo(children);
  }

  @Test
  void theRecordingRequestIsCappedAtItsMaximum() {
    assertThat(Recording.from(new Recording(1024).toJson())).isEqualTo(new Recording(1024));
    assertThat(Recording.from(null)).isEqualTo(new Recording(Recording.MAX_BYTES));
    assertBad(() -> Recording.from(new JsonObject().put("maxBytes", Recording.MAX_BYTES + 1)), "maxBytes",
        "'maxBytes' must be 1.." + Recording.MAX_BYTES + ", not " + (Recording.MAX_BYTES + 1));
    assertBad(() -> Recording.from(new JsonObject().put("maxBytes", 0)), "maxBytes",
        "'maxBytes' must be 1.." + Recording.MAX_BYTES + ", not 0");
  }

  @Test
  void aCallGraphPartMustBeOneTheDaemonKnows() {
    assertBad(() -> CallGraph.from(new JsonObject().put("parts", new JsonArray().add("children").add("flame"))),
        "parts[1]", "'parts[1]' must be one of [children, hot, hotOwn, reach], not \"flame\"");
  }

  @Test
  void absentFieldsTakeTheirDefaults() {
    assertThat(Resources.from(null)).isEqualTo(new Resources(null, 1));
    assertThat(Resources.from(new JsonObject().put("path", "/"))).isEqualTo(new Resources(null, 1));
    assertThat(Hold.from(new JsonObject())).isEqualTo(new Hold(true));
    assertThat(ValuesHistory.from(null).last()).isEqualTo(ValuesHistory.DEFAULT_LAST);
    assertThat(CallGraph.from(new JsonObject())).isEqualTo(new CallGraph(null, 100, "cpu"));
    assertThat(CallGraph.from(new JsonObject()).parts()).as("every part").containsExactlyInAnyOrder(CallGraph.Part.values());
    assertThat(EnableProbe.from(new JsonObject().put("method", "/Code/com.acme/Sim/step()V").put("kind", "call_count"))
        .focus()).isEqualTo(Focus.parse("</Code/com.acme/Sim/step()V>"));
  }

  @Test
  void aBadFieldIsNamedWithItsValue() {
    assertBad(() -> MetricDisable.from(new JsonObject().put("metricId", "x")), "metricId",
        "'metricId' must be a whole number, not \"x\"");
    assertBad(() -> DisableProbe.from(new JsonObject().put("probeId", 1.5)), "probeId",
        "'probeId' must be a whole number, not 1.5");
    assertBad(() -> Unwatch.from(new JsonObject()), "sourceId", "'sourceId' is missing: it must be a whole number");
    assertBad(() -> MetricEnable.from(new JsonObject().put("metric", "cpu").put("samplePeriodMillis", "fast")),
        "samplePeriodMillis", "'samplePeriodMillis' must be a whole number, not \"fast\"");
    assertBad(() -> MetricEnable.from(new JsonObject().put("metric", 3)), "metric", "'metric' must be text, not 3");
    assertThatThrownBy(() -> MetricPlan.from(new JsonObject().put("metric", "cpu").put("focus", "</Code/a/B")))
        .isInstanceOf(BadField.class).hasMessageStartingWith("'focus' must be a focus such as </Code/com.acme/Cache>"
            + " or <>, not \"</Code/a/B\": ");
    assertThatThrownBy(() -> Resources.from(new JsonObject().put("path", "Code")))
        .isInstanceOf(BadField.class).hasMessageStartingWith("'path' must be a resource path such as"
            + " /Code/com.acme/Cache, not \"Code\": ");
    assertBad(() -> Resources.from(new JsonObject().put("depth", 1L << 40)), "depth",
        "'depth' must be a whole number between -2147483648 and 2147483647, not 1099511627776");
    assertBad(() -> Hold.from(new JsonObject().put("hold", "yes")), "hold", "'hold' must be true or false, not \"yes\"");
    assertBad(() -> ValuesHistory.from(new JsonObject().put("last", "all")), "last",
        "'last' must be a whole number, not \"all\"");
    assertBad(() -> ClassBytes.from(new JsonObject().put("className", true)), "className",
        "'className' must be text, not true");
    assertBad(() -> EnableProbe.from(new JsonObject().put("kind", "call_count")), "focus",
        "enable needs 'focus' (or 'method') and 'kind'");
    assertBad(() -> Watch.from(new JsonObject().put("source", "cpu_sample")), "source",
        "watch needs 'source', an object {\"event\":…, \"code\":…, \"thread\":…, \"form\":…}, not cpu_sample");
  }

  private static void assertBad(org.assertj.core.api.ThrowableAssert.ThrowingCallable read, String field,
      String message) {
    assertThatThrownBy(read).isInstanceOfSatisfying(BadField.class, e -> {
      assertThat(e.field()).isEqualTo(field);
      assertThat(e).hasMessage(message);
    });
  }
}
