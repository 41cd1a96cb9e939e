package dev.bottlenose.daemon.bus;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.Membership;
import dev.bottlenose.bus.protocol.DaemonEvents;
import dev.bottlenose.bus.protocol.DaemonReplies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.daemon.channel.ChannelServer;
import dev.bottlenose.daemon.channel.PeerAgent;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The verticle on a local (not clustered) Vert.x, over the test peer agent; the "target" is a `sleep` process. */
class DaemonVerticleTest {
  private static final String ID = "unit";
  private final Vertx vertx = Vertx.vertx();
  private Process target;
  private PeerAgent peer;
  private TargetSession session;

  @BeforeEach
  void deploy() throws Exception {
    target = new ProcessBuilder("sleep", "60").start();
    try (ChannelServer server = ChannelServer.open()) {
      peer = PeerAgent.connect(server.port(), server.token(), target.pid());
      session = TargetSession.over(server.accept(Duration.ofSeconds(5), 10_000, () -> true, () -> ""), target.pid(),
          SessionOptions.defaults().withInterval(Duration.ofMillis(100)));
    }
    vertx.deployVerticle(new DaemonVerticle(session, ID, "localhost")).toCompletionStage().toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    session.close();
    peer.close();
    target.destroyForcibly().waitFor();
  }

  private JsonObject request(String address, JsonObject body) throws Exception {
    return vertx.eventBus().<JsonObject>request(address, body).toCompletionStage().toCompletableFuture()
        .get(10, TimeUnit.SECONDS).body();
  }

  private ReplyException failure(String address, JsonObject body) throws Exception {
    try {
      request(address, body);
    } catch (ExecutionException e) {
      return (ReplyException) e.getCause();
    }
    throw new AssertionError("expected " + address + " to fail");
  }

  @Test
  void servesMetricsEnabledAddedListedAndDisabled() throws Exception {
    ReplyException broken = failure(Addresses.metricsAdd(ID), new JsonObject().put("fileName", "b.metrics")
        .put("text", "metric b {\n  combine total\n}"));
    assertThat(broken.failureCode()).isEqualTo(400);
    JsonObject error = new JsonObject(broken.getMessage()).getJsonArray("errors").getJsonObject(0);
    assertThat(error.getInteger("line")).isEqualTo(2);
    assertThat(error.getInteger("column")).isEqualTo(11);
    JsonObject added = request(Addresses.metricsAdd(ID), new JsonObject().put("fileName", "c.metrics").put("text",
        "metric c {\n description \"calls\"\n unit count/s\n accumulates calls\n refine /Code exclusive\n"
            + " combine sum\n report rate\n}"));
    assertThat(added.getJsonArray("added")).containsExactly("c");
    JsonObject enabled = request(Addresses.metricEnable(ID), new JsonObject().put("metric", "c")
        .put("focus", "<" + PeerAgent.STEP + ">").put("requester", "consultant"));
    long metricId = enabled.getLong("metricId");
    assertThat(enabled.getInteger("probes")).isEqualTo(1);
    assertThat(request(Addresses.metricsList(ID), null).getJsonArray("active")).hasSize(1);
    await().atMost(Duration.ofSeconds(5)).until(() -> {
      JsonArray samples = request(Addresses.valuesHistory(ID), new JsonObject().put("last", 1)).getJsonArray("samples");
      return !samples.isEmpty() && samples.getJsonObject(0).getJsonArray("metrics").stream()
          .anyMatch(m -> ((JsonObject) m).getLong("metricId") == metricId && ((JsonObject) m).getValue("value") != null);
    });
    assertThat(request(Addresses.metricDisable(ID), new JsonObject().put("metricId", metricId))
        .getInteger("probesRemoved")).isEqualTo(1);
    assertThat(failure(Addresses.metricEnable(ID), new JsonObject().put("metric", "nope").put("focus", "<>"))
        .failureCode()).isEqualTo(404);
    assertThat(failure(Addresses.metricEnable(ID), new JsonObject().put("metric", "calls").put("focus", "<>"))
        .failureCode()).isEqualTo(400);
    assertThat(failure(Addresses.metricDisable(ID), new JsonObject().put("metricId", metricId)).failureCode())
        .isEqualTo(404);
  }

  @Test
  void listsItselfAndServesRequests() throws Exception {
    JsonArray daemons = request(Addresses.DAEMONS_LIST, null).getJsonArray("daemons");
    assertThat(daemons).singleElement().satisfies(d -> assertThat(((JsonObject) d).getString("daemonId")).isEqualTo(ID));
    assertThat(request(Addresses.resources(ID), new JsonObject().put("path", "/Code/com.acme/Sim").put("depth", 1))
        .getJsonArray("resources")).hasSize(3);
    long probeId = request(Addresses.enable(ID), new JsonObject().put("focus", PeerAgent.STEP).put("kind", "call_count")
        .put("requester", "consultant")).getLong("probeId");
    assertThat(request(Addresses.ledger(ID), null).getJsonArray("entries").getJsonObject(0).getString("askedBy"))
        .isEqualTo("consultant");
    assertThat(request(Addresses.disable(ID), new JsonObject().put("probeId", probeId)).getBoolean("classRestored"))
        .isTrue();
    assertThat(request(Addresses.interval(ID), new JsonObject()).getLong("intervalMillis")).isEqualTo(100);
  }

  /** A place written as Java writes it is the path the commands' --focus resolves it to (CodePlaces), asked over the bus. */
  @Test
  void resolvesJavaNamesToTheirCodePaths() throws Exception {
    assertThat(DaemonReplies.CodePath.from(request(Addresses.codePath(ID), new JsonObject().put("name", "com.acme.Sim::step")))
        .path()).hasToString(PeerAgent.STEP);
    assertThat(request(Addresses.codePath(ID), new JsonObject().put("name", "com.acme.Sim")).getString("path"))
        .isEqualTo("/Code/com.acme/Sim");
    ReplyException unknown = failure(Addresses.codePath(ID), new JsonObject().put("name", "com.acme.Sim::fly"));
    assertThat(unknown.failureCode()).isEqualTo(400);
    assertThat(unknown.getMessage()).contains("no code matches 'com.acme.Sim::fly'").contains("has no method fly");
    ReplyException path = failure(Addresses.codePath(ID), new JsonObject().put("name", "/Code/com.acme/Sim"));
    assertThat(path.failureCode()).isEqualTo(400);
    assertThat(path.getMessage()).contains("not a Java name");
  }

  /** What the daemon answers and publishes reads back into the bus.protocol records its clients use. */
  @Test
  void everyReplyAndSampleReadsIntoItsRecord() throws Exception {
    List<JsonObject> values = new CopyOnWriteArrayList<>();
    vertx.eventBus().<JsonObject>consumer(Addresses.values(ID), m -> values.add(m.body()));
    DaemonReplies.Status status = DaemonReplies.Status.from(request(Addresses.status(ID), null));
    assertThat(status.isRunning()).isTrue();
    assertThat(status.pid()).isEqualTo(target.pid());
    assertThat(status.node()).isEqualTo(Membership.LOCAL);
    assertThat(status.agent()).isNotNull();
    assertThat(DaemonReplies.Daemons.from(request(Addresses.DAEMONS_LIST, null)).daemons())
        .singleElement().satisfies(d -> {
          assertThat(d.daemonId()).isEqualTo(ID);
          assertThat(d.pid()).isEqualTo(target.pid());
          assertThat(d.isRunning()).isTrue();
        });
    assertThat(DaemonReplies.Resources.from(request(Addresses.resources(ID), new JsonObject()
        .put("path", "/Code/com.acme/Sim").put("depth", 1))).resources()).extracting(r -> r.path().toString())
        .contains("/Code/com.acme/Sim");
    DaemonReplies.Probe probe = DaemonReplies.Probe.from(request(Addresses.enable(ID), new JsonObject()
        .put("focus", PeerAgent.STEP).put("kind", "call_count").put("requester", "consultant")));
    assertThat(probe.askedBy()).isEqualTo("consultant");
    assertThat(DaemonReplies.Ledger.from(request(Addresses.ledger(ID), null)).entries()).hasSize(1);
    assertThat(DaemonReplies.RemovedProbe.from(request(Addresses.disable(ID), new JsonObject()
        .put("probeId", probe.probeId()))).classRestored()).isTrue();
    assertThat(DaemonReplies.Interval.from(request(Addresses.interval(ID), new JsonObject())).intervalMillis())
        .isEqualTo(100);
    request(Addresses.metricsAdd(ID), new JsonObject().put("fileName", "c.metrics").put("text",
        "metric c {\n description \"calls\"\n unit count/s\n accumulates calls\n refine /Code exclusive\n"
            + " combine sum\n report rate\n}"));
    JsonObject pair = new JsonObject().put("metric", "c").put("focus", "<" + PeerAgent.STEP + ">");
    assertThat(DaemonReplies.MetricPlan.from(request(Addresses.metricPlan(ID), pair)).plan()).isNotEmpty();
    DaemonReplies.ActiveMetric metric = DaemonReplies.ActiveMetric.from(request(Addresses.metricEnable(ID),
        pair.copy().put("requester", "consultant")));
    assertThat(metric.probes()).isEqualTo(1);
    DaemonReplies.MetricsList list = DaemonReplies.MetricsList.from(request(Addresses.metricsList(ID), null));
    assertThat(list.active()).singleElement().isEqualTo(metric);
    assertThat(list.metrics()).extracting(DaemonReplies.MetricInfo::name).contains("c");
    await().atMost(Duration.ofSeconds(5)).until(() -> values.stream().map(DaemonEvents.Sample::from)
        .anyMatch(s -> s.metric(metric.metricId()) != null && s.metric(metric.metricId()).value() != null));
    assertThat(DaemonReplies.ValuesHistory.from(request(Addresses.valuesHistory(ID), new JsonObject().put("last", 2)))
        .samples()).isNotEmpty().hasSizeLessThanOrEqualTo(2);
    assertThat(DaemonReplies.MetricDisabled.from(request(Addresses.metricDisable(ID), new JsonObject()
        .put("metricId", metric.metricId()))).probesRemoved()).isEqualTo(1);
    assertThat(DaemonReplies.Hold.from(request(Addresses.hold(ID), new JsonObject().put("hold", true))).holders())
        .contains(Membership.LOCAL);
  }

  @Test
  void failuresCarryACodeAndAClearText() throws Exception {
    ReplyException missing = failure(Addresses.enable(ID), new JsonObject().put("focus", "/Code/com.acme/Sim/fly()V")
        .put("kind", "call_count"));
    assertThat(missing.failureCode()).isEqualTo(404);
    assertThat(missing.getMessage()).contains("/Code/com.acme/Sim/fly()V");
    assertThat(failure(Addresses.enable(ID), new JsonObject().put("kind", "call_count")).getMessage())
        .isEqualTo("enable needs 'focus' (or 'method') and 'kind'");
    assertThat(failure(Addresses.disable(ID), new JsonObject().put("probeId", "seven")).failureCode()).isEqualTo(400);
    assertThat(failure(Addresses.interval(ID), new JsonObject().put("millis", 1)).getMessage())
        .isEqualTo("interval 1 ms is outside 50 ms .. 1 h");
    assertThat(failure(Addresses.resources(ID), new JsonObject().put("path", "/Nowhere")).failureCode()).isEqualTo(400);
  }

  @Test
  void watchesASourceAndPublishesItsValues() throws Exception {
    List<JsonObject> values = new CopyOnWriteArrayList<>();
    vertx.eventBus().<JsonObject>consumer(Addresses.values(ID), m -> values.add(m.body()));
    JsonObject watched = request(Addresses.watch(ID), new JsonObject().put("source", new JsonObject()
        .put("event", "cpu_sample")).put("requester", "consultant"));
    long id = watched.getLong("sourceId");
    assertThat(watched.getString("askedBy")).isEqualTo("consultant");
    // The peer names this JVM's JFR repository: the daemon counts this JVM's real execution samples.
    AtomicBoolean spinning = new AtomicBoolean(true);
    Thread busy = new Thread(() -> {
      long x = 0;
      while (spinning.get()) {
        x += Long.numberOfTrailingZeros(x * 31 + 7);
      }
    }, "busy");
    busy.start();
    try {
      await().atMost(Duration.ofSeconds(10)).until(() -> values.stream().anyMatch(v -> !v.getJsonArray("sources").isEmpty()
          && v.getJsonArray("sources").getJsonObject(0).getLong("countDelta") > 0));
    } finally {
      spinning.set(false);
      busy.join();
    }
    // the interval that counted the busy thread's samples (a later one may come after it stopped)
    JsonObject value = values.stream().filter(v -> !v.getJsonArray("sources").isEmpty()
        && v.getJsonArray("sources").getJsonObject(0).getLong("countDelta") > 0).findFirst().orElseThrow()
        .getJsonArray("sources").getJsonObject(0);
    assertThat(value.getLong("sourceId")).isEqualTo(id);
    assertThat(value.getJsonObject("source").getString("event")).isEqualTo("cpu_sample");
    assertThat(value.getDouble("nanosPerSecond")).isPositive();
    assertThat(request(Addresses.ledger(ID), null).getJsonArray("sources").getJsonObject(0).getString("askedBy"))
        .isEqualTo("consultant");
    assertThat(request(Addresses.status(ID), null).getJsonArray("sources")).hasSize(1);
    assertThat(request(Addresses.unwatch(ID), new JsonObject().put("sourceId", id)).getLong("sourceId")).isEqualTo(id);
    assertThat(request(Addresses.status(ID), null).getJsonArray("sources")).isEmpty();
  }

  @Test
  void badWatchRequestsAreRefusedWithTheirCodes() throws Exception {
    ReplyException noSource = failure(Addresses.watch(ID), new JsonObject().put("source", "cpu_sample"));
    assertThat(noSource.failureCode()).isEqualTo(400);
    assertThat(noSource.getMessage()).startsWith("watch needs 'source', an object");
    ReplyException unknown = failure(Addresses.watch(ID), new JsonObject().put("source", new JsonObject()
        .put("event", "gc_storm")));
    assertThat(unknown.failureCode()).isEqualTo(400);
    assertThat(unknown.getMessage()).contains("unknown event 'gc_storm'");
    ReplyException notWatched = failure(Addresses.unwatch(ID), new JsonObject().put("sourceId", 77));
    assertThat(notWatched.failureCode()).isEqualTo(404);
    assertThat(notWatched.getMessage()).startsWith("no source 77 in this session");
    assertThat(failure(Addresses.unwatch(ID), new JsonObject()).failureCode()).isEqualTo(400);
  }

  @Test
  void publishesValuesChangesAndTheExit() throws Exception {
    List<JsonObject> values = new CopyOnWriteArrayList<>();
    List<JsonObject> changes = new CopyOnWriteArrayList<>();
    List<JsonObject> exits = new CopyOnWriteArrayList<>();
    vertx.eventBus().<JsonObject>consumer(Addresses.values(ID), m -> values.add(m.body()));
    vertx.eventBus().<JsonObject>consumer(Addresses.changes(ID), m -> changes.add(m.body()));
    vertx.eventBus().<JsonObject>consumer(Addresses.exited(ID), m -> exits.add(m.body()));
    await().atMost(Duration.ofSeconds(5)).until(() -> values.size() >= 2);
    peer.sendEvent(Map.of("event", "changes", "changes", List.of(Map.of("type", "added", "resource",
        Map.of("path", "/Threads/worker-1", "kind", "thread", "attributes", Map.of())))));
    await().atMost(Duration.ofSeconds(5)).until(() -> changes.size() == 1);
    target.destroyForcibly().waitFor();
    peer.close();
    await().atMost(Duration.ofSeconds(5)).until(() -> exits.size() == 1);
    assertThat(exits.get(0).getString("state")).isEqualTo("TARGET_EXITED");
    assertThat(exits.get(0).getString("endReason")).isEqualTo("target process " + target.pid() + " exited");
    assertThat(request(Addresses.status(ID), null).getString("state")).isEqualTo("TARGET_EXITED");
    DaemonEvents.Announcement exited = DaemonEvents.Announcement.from(exits.get(0));
    assertThat(exited.event()).isEqualTo(DaemonEvents.EXITED);
    assertThat(exited.endReason()).isEqualTo("target process " + target.pid() + " exited");
    assertThat(DaemonEvents.Changes.from(changes.get(0)).changes()).singleElement()
        .satisfies(c -> assertThat(c.getString("type")).isEqualTo("added"));
    DaemonReplies.Status ended = DaemonReplies.Status.from(request(Addresses.status(ID), null));
    assertThat(ended.agent()).isNull();
    assertThat(ended.endReason()).isEqualTo(exited.endReason());
    assertThat(values).allSatisfy(v -> assertThat(DaemonEvents.Sample.from(v).intervalNanos()).isPositive());
    assertThat(request(Addresses.valuesHistory(ID), new JsonObject().put("last", 1)).getJsonArray("samples")).hasSize(1);
    assertThat(failure(Addresses.enable(ID), new JsonObject().put("focus", PeerAgent.STEP).put("kind", "call_count"))
        .failureCode()).isEqualTo(410);
    assertThat(failure(Addresses.watch(ID), new JsonObject().put("source", new JsonObject().put("event", "cpu_sample")))
        .failureCode()).isEqualTo(410);
  }
}
