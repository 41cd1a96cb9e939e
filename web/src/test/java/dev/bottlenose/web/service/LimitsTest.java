package dev.bottlenose.web.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What one client, and all together, may start in other people's JVMs through the service: over the limit is 429 and starts nothing. */
class LimitsTest {
  private static final Limits SMALL = new Limits(2, 3, 1, 2, Duration.ofSeconds(30));
  @TempDir
  Path data;

  private static String plotBody() {
    return new JsonObject().put("daemonId", "vm-1").put("metric", "cpu_inclusive").encode();
  }

  @Test
  void plotsAndViewsAreLimitedPerClientAndInAll() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, null, SMALL); StandInDaemon daemon = new StandInDaemon(f.vertx, "vm-1")) {
      String p1 = PlotLifetimeTest.plot(f, "vm-1");
      String p2 = PlotLifetimeTest.plot(f, "vm-1");
      HttpResponse<String> third = f.post("/api/plots", plotBody());
      RestApiTest.assertError(third, 429, "client 127.0.0.1 has 2 live plots and VM-vs-app views (" + p1 + ", " + p2
          + "), the most one client may have at once");
      assertThat(new JsonObject(third.body()).getString("error")).contains("DELETE /api/plots/{plotId}");
      assertThat(new JsonObject(third.body()).getInteger("limit")).isEqualTo(2);
      RestApiTest.assertError(f.post("/api/vmapp", new JsonObject().put("daemonId", "vm-1").encode()), 429, "client 127.0.0.1 has 2");
      assertThat(daemon.enabled).as("nothing more was enabled").hasSize(2);

      // Another client (another loopback address) has its own two, within the service's three.
      InetAddress other = InetAddress.getByName("127.0.0.2");
      ServiceFixture.Raw view = f.rawFrom(other, "POST", "/api/vmapp", new JsonObject().put("daemonId", "vm-1").encode(),
          "Content-Type: application/json");
      assertThat(view.status()).as(view.body()).isEqualTo(201);
      ServiceFixture.Raw full = f.rawFrom(other, "POST", "/api/plots", plotBody(), "Content-Type: application/json");
      assertThat(full.status()).isEqualTo(429);
      assertThat(full.json().getString("error")).contains("the service has 3 live plots and VM-vs-app views, the most it keeps");
      assertThat(daemon.enabled).hasSize(2 + Plots.CATEGORIES.size());

      assertThat(f.delete("/api/plots/" + p1).statusCode()).isEqualTo(200);
      PlotLifetimeTest.plot(f, "vm-1");
    }
  }

  private static String searchBody() {
    return new JsonObject().put("daemons", new io.vertx.core.json.JsonArray().add("vm-1")).put("maxTimeSeconds", 120).encode();
  }

  private static boolean running(ServiceFixture f, String searchId) throws Exception {
    return new JsonObject(f.get("/api/searches/" + searchId).body()).getBoolean("running");
  }

  @Test
  void runningSearchesAreLimitedPerClientAndInAll() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, null, SMALL); StandInDaemon daemon = new StandInDaemon(f.vertx, "vm-1").registered()) {
      HttpResponse<String> first = f.post("/api/searches", searchBody());
      assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
      String s1 = new JsonObject(first.body()).getString("searchId");
      assertThat(running(f, s1)).isTrue();
      HttpResponse<String> second = f.post("/api/searches", searchBody());
      RestApiTest.assertError(second, 429, "client 127.0.0.1 runs 1 searches (" + s1 + "), the most one client may run at once");
      assertThat(new JsonObject(second.body()).getString("error")).contains("POST /api/searches/{searchId}/stop");

      InetAddress other = InetAddress.getByName("127.0.0.2");
      ServiceFixture.Raw theirs = f.rawFrom(other, "POST", "/api/searches", searchBody(), "Content-Type: application/json");
      assertThat(theirs.status()).as(theirs.body()).isEqualTo(201);
      ServiceFixture.Raw full = f.rawFrom(InetAddress.getByName("127.0.0.3"), "POST", "/api/searches", searchBody(),
          "Content-Type: application/json");
      assertThat(full.status()).as(full.body()).isEqualTo(429);
      assertThat(full.json().getString("error")).contains("the service runs 2 searches, the most it runs at once");
      assertThat(new JsonObject(f.get("/api/searches").body()).getJsonArray("searches")).hasSize(2);

      assertThat(f.post("/api/searches/" + s1 + "/stop", "").statusCode()).isEqualTo(200);
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !running(f, s1));
      HttpResponse<String> again = f.post("/api/searches", searchBody());
      assertThat(again.statusCode()).as(again.body()).isEqualTo(201);
    }
  }

  @Test
  void requestsAtTheSameTimeCannotOvershootTheLimit() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, null, SMALL); StandInDaemon daemon = new StandInDaemon(f.vertx, "vm-1")) {
      List<CompletableFuture<HttpResponse<String>>> all = IntStream.range(0, 20).mapToObj(i -> f.http.sendAsync(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + f.service.port() + "/api/plots")).header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(plotBody())).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))).toList();
      List<Integer> statuses = all.stream().map(c -> c.join().statusCode()).toList();
      assertThat(statuses).filteredOn(s -> s == 201).hasSize(2);
      assertThat(statuses).filteredOn(s -> s == 429).hasSize(18);
      assertThat(daemon.enabled).hasSize(2);
    }
  }
}
