package dev.bottlenose.tests.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.tests.harness.Bus;
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
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A search run by {@code bottlenose search --pid N}, its own process, shows on a {@code bottlenose serve}'s JVMs listing
 * ({@code GET /api/jvms}) while it runs, with the process that runs it, and is gone from it once that process has
 * ended, whether it ends by itself or is killed with SIGKILL; every part real (target, service, command).
 */
class ClusterSearchesTest {
  private final HttpClient http = HttpClient.newHttpClient();

  /** The command serves its target itself: its JVM and its search are listed while it runs, and go with it. */
  @Test
  void aSearchCommandsSearchIsListedWhileItRunsAndGoneOnceItEnds() throws Exception {
    Path data = Files.createTempDirectory("bottlenose-cluster-searches-");
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class);
        WebProcess serve = WebProcess.start(bus.secret(), "serve", "--port", "0", "--data", data.resolve("service").toString())) {
      String url = serve.awaitUrl(Duration.ofSeconds(90));
      try (WebProcess search = WebProcess.start(bus.secret(), "search", "--pid", Long.toString(target.pid()),
          "--budget", "10%", "--max-time", "20s", "--data", data.toString())) {
        JsonObject listed = awaitListed(url, target.pid(), search);
        assertThat(listed.getString("state")).isEqualTo("running");
        assertThat(listed.getBoolean("own")).isFalse();
        assertThat(listed.getString("startedBy")).isEqualTo("bottlenose search");
        assertThat(listed.getString("user")).isEqualTo(System.getProperty("user.name"));
        assertThat(listed.getDouble("budget")).isEqualTo(0.1);
        assertThat(listed.getString("savedIn")).isEqualTo(data.toAbsolutePath().resolve(listed.getString("searchId") + ".json")
            .toString());
        assertThat(listed.getJsonArray("families")).hasSize(4);
        String searchId = listed.getString("searchId");

        assertThat(search.waitFor(Duration.ofSeconds(150))).as(search.out() + search.err()).isZero();
        await("the ended command's search gone from the listing").atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(500)).until(() -> find(jvms(url), searchId).isEmpty());
      }
    }
  }

  /**
   * The service serves the target (attached from its JVMs page), a command searches it: killed with SIGKILL, its search
   * leaves the JVM's listing, while the JVM stays with the status dots the search last announced.
   */
  @Test
  void aKilledSearchCommandsSearchLeavesTheListingAndItsJvmKeepsItsDots() throws Exception {
    Path data = Files.createTempDirectory("bottlenose-cluster-searches-");
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class);
        WebProcess serve = WebProcess.start(bus.secret(), "serve", "--port", "0", "--data", data.resolve("service").toString())) {
      String url = serve.awaitUrl(Duration.ofSeconds(90));
      String daemonId = send(HttpRequest.newBuilder(URI.create(url + "/api/jvms")).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("pid", target.pid()).encode())), 201)
          .getString("daemonId");
      try (WebProcess search = WebProcess.start(bus.secret(), "search", "--pid", Long.toString(target.pid()),
          "--budget", "10%", "--max-time", "300s", "--data", data.toString())) {
        JsonObject listed = awaitListed(url, target.pid(), search);
        String searchId = listed.getString("searchId");
        assertThat(listed.getJsonArray("daemons")).containsExactly(daemonId);
        search.kill();

        await("the killed command's search gone from the listing").atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(500)).until(() -> find(jvms(url), searchId).isEmpty());
        JsonObject jvm = jvms(url).stream().map(JsonObject.class::cast).filter(j -> j.getString("daemonId").equals(daemonId))
            .findFirst().orElseThrow(() -> new AssertionError("the service's daemon is gone: " + serve.err()));
        assertThat(jvm.getJsonArray("searches")).isEmpty();
        assertThat(jvm.getJsonArray("status")).as("the dots of the search last announced").hasSize(4)
            .allSatisfy(s -> {
              assertThat(((JsonObject) s).getString("searchId")).isEqualTo(searchId);
              assertThat(((JsonObject) s).getBoolean("own")).isFalse();
            });
      }
    }
  }

  /** The command's search as the listing shows it under the JVM of {@code pid}, once it does. */
  private JsonObject awaitListed(String url, long pid, WebProcess search) {
    JsonObject[] found = new JsonObject[1];
    await("the command's search listed").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
        .failFast("the search command ended: " + search.err(), () -> !search.isAlive())
        .until(() -> {
          for (Object o : jvms(url)) {
            JsonObject jvm = (JsonObject) o;
            if (jvm.getLong("pid") == pid) {
              for (Object s : jvm.getJsonArray("searches")) {
                if (((JsonObject) s).getLong("processId") == search.pid()) {
                  found[0] = (JsonObject) s;
                  return true;
                }
              }
            }
          }
          return false;
        });
    return found[0];
  }

  private static Optional<JsonObject> find(JsonArray jvms, String searchId) {
    return jvms.stream().map(JsonObject.class::cast).flatMap(j -> j.getJsonArray("searches").stream())
        .map(JsonObject.class::cast).filter(s -> searchId.equals(s.getString("searchId"))).findFirst();
  }

  private JsonArray jvms(String url) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(url + "/api/jvms")).GET(), 200).getJsonArray("jvms");
  }

  private JsonObject send(HttpRequest.Builder request, int expected) throws Exception {
    HttpResponse<String> r = http.send(request.timeout(Duration.ofSeconds(150)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.uri() + " " + r.body()).isEqualTo(expected);
    return new JsonObject(r.body());
  }
}
