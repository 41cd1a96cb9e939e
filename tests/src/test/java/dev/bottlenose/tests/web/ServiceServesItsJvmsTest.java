package dev.bottlenose.tests.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.harness.WebProcess;
import dev.bottlenose.tests.workloads.HotMethodWorkload;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The service serves the JVMs it is asked to attach to from its own process, with no daemon process to start: its
 * searches measure through that daemon; a JVM that exits leaves the listing once its daemon has answered for it a
 * little longer, and another JVM is attached all the same; when the service stops, the agent in a JVM it still
 * served has removed everything it inserted.
 */
class ServiceServesItsJvmsTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void theServiceServesItsJvmsItselfLetsAnExitedOneGoAndLeavesNothingBehindWhenItStops() throws Exception {
    Path data = Files.createTempDirectory("bottlenose-served-");
    try (Bus bus = Bus.join(); TargetJvm first = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class);
        TargetJvm second = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class)) {
      try (WebProcess serve = WebProcess.start(bus.secret(), "serve", "--port", "0", "--data", data.toString())) {
        String url = serve.awaitUrl(Duration.ofSeconds(90));
        String firstId = attach(url, first.pid());
        assertThat(WebProcess.daemonsFor(first.pid())).as("daemon processes for the target").isEmpty();
        JsonObject status = bus.request(Addresses.status(firstId), new JsonObject());
        assertThat(status.getLong("pid")).isEqualTo(first.pid());
        String searchId = post(url + "/api/searches", new JsonObject().put("daemons", new JsonArray().add(firstId))
            .put("budget", 0.2).put("maxTimeSeconds", 600), 201).getString("searchId");
        await("the search measuring in the target").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
            .until(() -> {
              JsonObject ledger = bus.request(Addresses.ledger(firstId), new JsonObject());
              return !ledger.getJsonArray("entries").isEmpty() || !ledger.getJsonArray("sources").isEmpty();
            });

        first.close();
        await("the search ended by the target's exit").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
            .until(() -> get(url + "/api/searches/" + searchId).getString("endReason") != null);
        assertThat(get(url + "/api/searches/" + searchId).getString("endReason")).startsWith("target exited");
        await("the exited JVM gone from the listing").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
            .until(() -> jvms(url).stream().noneMatch(j -> j.getString("daemonId").equals(firstId)));

        String secondId = attach(url, second.pid());
        assertThat(bus.request(Addresses.ledger(secondId), new JsonObject()).getJsonArray("entries")).isEmpty();
        String again = post(url + "/api/searches", new JsonObject().put("daemons", new JsonArray().add(secondId))
            .put("budget", 0.2).put("maxTimeSeconds", 600), 201).getString("searchId");
        await("the second search measuring").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
            .until(() -> !bus.request(Addresses.ledger(secondId), new JsonObject()).getJsonArray("sources").isEmpty());
        assertThat(again).isNotEqualTo(searchId);
      }
      try (DaemonProcess fresh = DaemonProcess.attach(second.pid(), bus.secret())) {
        bus.awaitRunning(fresh);
        JsonObject ledger = bus.request(Addresses.ledger(fresh.id()), new JsonObject());
        assertThat(ledger.getJsonArray("entries")).as("probes left in the target").isEmpty();
        assertThat(ledger.getJsonArray("sources")).as("sources left in the target").isEmpty();
      }
    }
  }

  private String attach(String url, long pid) throws Exception {
    return post(url + "/api/jvms", new JsonObject().put("pid", pid), 201).getString("daemonId");
  }

  private java.util.List<JsonObject> jvms(String url) throws Exception {
    return get(url + "/api/jvms").getJsonArray("jvms").stream().map(JsonObject.class::cast).toList();
  }

  private JsonObject get(String url) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(url)).GET(), 200);
  }

  private JsonObject post(String url, JsonObject body, int expected) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.encode())), expected);
  }

  private JsonObject send(HttpRequest.Builder request, int expected) throws Exception {
    HttpResponse<String> r = http.send(request.timeout(Duration.ofSeconds(150)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.uri() + " " + r.body()).isEqualTo(expected);
    return new JsonObject(r.body());
  }
}
