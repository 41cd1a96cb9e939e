package dev.bottlenose.daemon.bus;

import dev.bottlenose.bus.Addresses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.bus.Cluster;
import dev.bottlenose.bus.ClusterSecret;
import dev.bottlenose.bus.ClusterSettings;
import dev.bottlenose.daemon.it.TargetJvm;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A clustered Vert.x in this JVM talks to a daemon started as its own process; then the daemon is
 * killed with SIGKILL and the agent must drop its probes after the heartbeat.
 */
class EventBusIT {
  private static final String SECRET = UUID.randomUUID().toString();
  private static final String ID = "it-" + SECRET.substring(0, 8);
  private static TargetJvm target;
  private static Process daemon;
  private static Vertx vertx;

  @BeforeAll
  static void start() throws Exception {
    target = TargetJvm.start();
    ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        System.getProperty("bottlenose.daemon.jar"), "daemon", "--pid", Long.toString(target.pid()), "--id", ID,
        "--interval", "300ms", "--heartbeat", "1500ms").redirectErrorStream(true)
        .redirectOutput(new File(System.getProperty("java.io.tmpdir"), "bottlenose-" + ID + ".log"));
    pb.environment().put(ClusterSecret.ENV, SECRET);
    daemon = pb.start();
    vertx = Cluster.start(ClusterSettings.loopback(ClusterSecret.of(SECRET, "test"))).toCompletionStage()
        .toCompletableFuture().get(90, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() throws Exception {
    daemon.destroyForcibly().waitFor();
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    target.close();
  }

  private static JsonObject request(String address, JsonObject body) throws Exception {
    return vertx.eventBus().<JsonObject>request(address, body).toCompletionStage().toCompletableFuture()
        .get(15, TimeUnit.SECONDS).body();
  }

  private static ReplyException failure(String address, JsonObject body) throws Exception {
    try {
      request(address, body);
    } catch (ExecutionException e) {
      return (ReplyException) e.getCause();
    }
    throw new AssertionError("expected " + address + " to fail");
  }

  private static boolean listed() {
    try {
      JsonArray daemons = request(Addresses.DAEMONS_LIST, new JsonObject()).getJsonArray("daemons");
      return daemons.stream().anyMatch(d -> ID.equals(((JsonObject) d).getString("daemonId")));
    } catch (Exception e) {
      return false;
    }
  }

  @Test
  void servesTheProtocolAndTheAgentCleansUpAfterTheDaemonIsKilled() throws Exception {
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(EventBusIT::listed);

    JsonArray resources = request(Addresses.resources(ID), new JsonObject().put("path", "/Code/itworkload")
        .put("depth", -1)).getJsonArray("resources");
    assertThat(resources.stream().map(r -> ((JsonObject) r).getString("path"))).contains(TargetJvm.STEP);

    ReplyException bad = failure(Addresses.enable(ID), new JsonObject().put("focus", "/Code/itworkload/ItWorkload/fly()V")
        .put("kind", "call_count"));
    assertThat(bad.failureCode()).isEqualTo(404);
    assertThat(bad.getMessage()).contains("/Code/itworkload/ItWorkload/fly()V");
    assertThat(failure(Addresses.enable(ID), new JsonObject().put("focus", TargetJvm.STEP).put("kind", "warp"))
        .failureCode()).isEqualTo(400);

    JsonObject bytesBefore = request(Addresses.classBytes(ID), new JsonObject().put("className", TargetJvm.MAIN));
    assertThat(bytesBefore.getLong("length")).isPositive();
    List<JsonObject> values = new CopyOnWriteArrayList<>();
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(Addresses.values(ID), m -> values.add(m.body()));
    long probeId = request(Addresses.enable(ID), new JsonObject().put("focus", TargetJvm.STEP).put("kind", "call_count")
        .put("requester", "event-bus-it")).getLong("probeId");
    await().atMost(Duration.ofSeconds(10)).until(() -> values.stream().anyMatch(v -> counted(v, probeId)));
    consumer.unregister();

    assertThat(request(Addresses.valuesHistory(ID), new JsonObject().put("last", 5)).getJsonArray("samples")).isNotEmpty();
    assertThat(request(Addresses.status(ID), null).getString("state")).isEqualTo("RUNNING");
    assertThat(request(Addresses.interval(ID), new JsonObject().put("millis", 500)).getLong("intervalMillis"))
        .isEqualTo(500);
    assertThat(request(Addresses.ledger(ID), null).getJsonArray("entries")).hasSize(1);
    assertThat(request(Addresses.disable(ID), new JsonObject().put("probeId", probeId)).getBoolean("classRestored"))
        .isTrue();
    assertThat(request(Addresses.classBytes(ID), new JsonObject().put("className", TargetJvm.MAIN)))
        .isEqualTo(bytesBefore);

    request(Addresses.enable(ID), new JsonObject().put("focus", TargetJvm.STEP).put("kind", "wall_inclusive"));
    assertThat(request(Addresses.ledger(ID), null).getJsonArray("entries")).hasSize(1);
    daemon.destroyForcibly().waitFor();
    try (TargetSession fresh = TargetSession.attach(target.pid(), SessionOptions.defaults(), System.err)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> fresh.ledger().isEmpty());
    }
    assertThat(target.isAlive()).isTrue();
  }

  private static boolean counted(JsonObject sample, long probeId) {
    return sample.getJsonArray("probes").stream().map(p -> (JsonObject) p)
        .anyMatch(p -> p.getLong("probeId") == probeId && p.getLong("countDelta") > 0);
  }
}
