package dev.bottlenose.web.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plot or VM-vs-app view nobody watches is removed with its measurement after the grace period. */
class PlotLifetimeTest {
  private static final Duration GRACE = Duration.ofMillis(1500);
  @TempDir
  Path data;

  static String plot(ServiceFixture f, String daemonId) throws Exception {
    HttpResponse<String> r = f.post("/api/plots", new JsonObject().put("daemonId", daemonId).put("metric", "cpu_inclusive").encode());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return new JsonObject(r.body()).getString("plotId");
  }

  static JsonObject next(BlockingQueue<JsonObject> received, String topic) throws InterruptedException {
    while (true) {
      JsonObject m = received.poll(10, TimeUnit.SECONDS);
      assertThat(m).as("a message on " + topic).isNotNull();
      if (topic.equals(m.getString("topic"))) {
        return m;
      }
    }
  }

  @Test
  void aPlotNoSocketSubscribesToIsRemovedWithItsMeasurement() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, null, Limits.DEFAULT.withUnwatched(GRACE)); StandInDaemon daemon = new StandInDaemon(f.vertx, "vm-1")) {
      long made = System.nanoTime();
      String plotId = plot(f, "vm-1");
      assertThat(daemon.enabled).hasSize(1);
      HttpResponse<String> view = f.post("/api/vmapp", new JsonObject().put("daemonId", "vm-1").encode());
      assertThat(view.statusCode()).as(view.body()).isEqualTo(201);
      assertThat(daemon.enabled).hasSize(1 + Plots.CATEGORIES.size());

      await().atMost(Duration.ofSeconds(10)).until(daemon.enabled::isEmpty);
      assertThat(Duration.ofNanos(System.nanoTime() - made)).isGreaterThanOrEqualTo(GRACE);
      RestApiTest.assertError(f.delete("/api/plots/" + plotId), 404, "no live plot '" + plotId + "'");
      RestApiTest.assertError(f.delete("/api/vmapp/" + new JsonObject(view.body()).getString("viewId")), 404, "no live vmapp");
    }
  }

  @Test
  void aWatchedPlotStaysAndGoesAGracePeriodAfterItsLastSubscriberLeft() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, null, Limits.DEFAULT.withUnwatched(GRACE)); StandInDaemon daemon = new StandInDaemon(f.vertx, "vm-1")) {
      String plotId = plot(f, "vm-1");
      String topic = "plot:" + plotId;
      BlockingQueue<JsonObject> received = new LinkedBlockingQueue<>();
      WebSocket ws = f.live(received);
      ws.sendText(new JsonObject().put("op", "subscribe").put("topic", topic).encode(), true).get(5, TimeUnit.SECONDS);
      assertThat(next(received, topic).getJsonObject("event").getString("type")).isEqualTo("subscribed");

      Thread.sleep(GRACE.multipliedBy(2).toMillis());
      assertThat(daemon.enabled).as("watched, so still measured").hasSize(1);
      daemon.sample(0.25);
      assertThat(next(received, topic).getJsonObject("event").getDouble("value")).isEqualTo(0.25);

      // A page that reloads unsubscribes and subscribes again within the grace period: the plot stays.
      ws.sendText(new JsonObject().put("op", "unsubscribe").put("topic", topic).encode(), true).get(5, TimeUnit.SECONDS);
      Thread.sleep(GRACE.toMillis() / 3);
      ws.sendText(new JsonObject().put("op", "subscribe").put("topic", topic).encode(), true).get(5, TimeUnit.SECONDS);
      assertThat(next(received, topic).getJsonObject("event").getString("type")).isEqualTo("subscribed");
      Thread.sleep(GRACE.multipliedBy(2).toMillis());
      assertThat(daemon.enabled).hasSize(1);

      long left = System.nanoTime();
      ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(5, TimeUnit.SECONDS);
      await().atMost(Duration.ofSeconds(10)).until(daemon.enabled::isEmpty);
      assertThat(Duration.ofNanos(System.nanoTime() - left)).isGreaterThanOrEqualTo(GRACE.minusMillis(100));
      RestApiTest.assertError(f.delete("/api/plots/" + plotId), 404, "no live plot");
    }
  }

  @Test
  void theGracePeriodIsThirtySeconds() {
    assertThat(Limits.DEFAULT.unwatched()).isEqualTo(Duration.ofSeconds(30));
  }
}
