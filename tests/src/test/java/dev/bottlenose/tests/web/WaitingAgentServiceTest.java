package dev.bottlenose.tests.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.harness.WebProcess;
import dev.bottlenose.tests.workloads.HotMethodWorkload;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A JVM started with {@code -javaagent:bottlenose-agent.jar} alone and the attach mechanism off, as in a container
 * that keeps dynamic loading out: the service's JVMs page offers it (marked as a waiting agent), and attaching to it
 * from there gives a daemon, served from the service's own process, that reaches it through the agent's socket. The
 * service is never offered.
 */
class WaitingAgentServiceTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void theServiceListsAndServesAJvmWhoseAgentWaitsWithAttachOff() throws Exception {
    Path agent = DaemonProcess.daemonJar().resolveSibling("bottlenose-agent.jar");
    Path data = Files.createTempDirectory("bottlenose-waiting-");
    try (Bus bus = Bus.join();
        TargetJvm target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class, "-javaagent:" + agent,
            "-XX:+DisableAttachMechanism");
        WebProcess serve = WebProcess.start(bus.secret(), "serve", "--port", "0", "--data", data.toString())) {
      String url = serve.awaitUrl(Duration.ofSeconds(90));

      List<JsonObject> offered = localJvms(url);
      JsonObject listed = offered.stream().filter(j -> j.getLong("pid") == target.pid()).findFirst()
          .orElseThrow(() -> new AssertionError("pid " + target.pid() + " not offered: " + serve.err()));
      // the tool's own JVMs are never offered: not the service itself
      assertThat(offered).extracting(j -> j.getLong("pid")).doesNotContain(serve.pid());
      assertThat(listed.getBoolean("waitingAgent")).isTrue();
      assertThat(listed.getString("mainClass")).isEqualTo(HotMethodWorkload.class.getName());
      assertThat(listed.getBoolean("attached")).isFalse();

      String daemonId = send(HttpRequest.newBuilder(URI.create(url + "/api/jvms")).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("pid", target.pid()).encode())), 201)
          .getString("daemonId");
      JsonObject status = bus.request(Addresses.status(daemonId), new JsonObject());
      assertThat(status.getString("state")).isEqualTo(dev.bottlenose.bus.protocol.DaemonEvents.RUNNING);
      assertThat(status.getLong("pid")).isEqualTo(target.pid());
      // the service serves it from its own process (no daemon process), and is still never offered
      assertThat(WebProcess.daemonsFor(target.pid())).isEmpty();
      assertThat(localJvms(url)).extracting(j -> j.getLong("pid")).doesNotContain(serve.pid());
    }
  }

  private List<JsonObject> localJvms(String url) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(url + "/api/local-jvms")).GET(), 200).getJsonArray("jvms").stream()
        .map(JsonObject.class::cast).toList();
  }

  private JsonObject send(HttpRequest.Builder request, int expected) throws Exception {
    HttpResponse<String> r = http.send(request.timeout(Duration.ofSeconds(150)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.uri() + " " + r.body()).isEqualTo(expected);
    return new JsonObject(r.body());
  }
}
