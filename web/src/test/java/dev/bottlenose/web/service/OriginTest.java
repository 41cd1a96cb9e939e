package dev.bottlenose.web.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DNS rebinding and cross-site requests: the Host allow-list and the Origin / Fetch-Metadata checks, over real HTTP. */
class OriginTest {
  @TempDir
  Path data;

  /** A metric whose presence in GET /api/metrics shows that a POST /api/metrics took effect. */
  static String metricBody(String name) {
    return new JsonObject().put("text", "metric " + name + " {\n description \"x\"\n unit fraction\n accumulates cpu_time\n"
        + " refine /Code exclusive\n combine sum\n report fraction\n}").encode();
  }

  static List<String> metrics(ServiceFixture f) throws Exception {
    return new JsonObject(f.get("/api/metrics").body()).getJsonArray("metrics").stream()
        .map(o -> ((JsonObject) o).getString("name")).toList();
  }

  @Test
  void aHostThatDoesNotNameThisServiceIsRefusedBeforeAnythingHappens() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, null)) {
      int port = f.service.port();
      ServiceFixture.Raw read = f.raw("GET", "/api/jvms", null, "Host: evil.example:" + port);
      assertThat(read.status()).isEqualTo(421);
      assertThat(read.json().getString("error")).contains("Host 'evil.example:" + port + "' does not name this service")
          .contains("allowed: localhost, 127.0.0.1, [::1]");
      assertThat(f.raw("GET", "/", null, "Host: evil.example").status()).isEqualTo(421);

      ServiceFixture.Raw add = f.raw("POST", "/api/metrics", metricBody("rebound_cpu"), "Host: evil.example:" + port,
          "Content-Type: application/json");
      assertThat(add.status()).isEqualTo(421);
      assertThat(metrics(f)).doesNotContain("rebound_cpu");

      for (String host : List.of("localhost:" + port, "localhost", "LocalHost:" + port, "127.0.0.1:" + port, "[::1]:" + port)) {
        assertThat(f.raw("GET", "/api/searches", null, "Host: " + host).status()).as(host).isEqualTo(200);
      }
    }
  }

  @Test
  void aMissingOrMalformedHostIs421Too() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, null)) {
      // These were a 500 ("For HTTP/1.x requests, the 'Host' header is required") from the router.
      for (String host : new String[] {"Host: ", "Host: [::1", "Host: 127.0.0.1:1:2", "Host: localhost@evil.example", "Host: evil.example/x"}) {
        ServiceFixture.Raw add = f.raw("POST", "/api/metrics", metricBody("hostless_cpu"), host, "Content-Type: application/json");
        assertThat(add.status()).as(host + ": " + add.body()).isEqualTo(421);
        assertThat(add.json().getString("error")).contains("does not name this service");
      }
      ServiceFixture.Raw none = f.exchange("GET /api/jvms HTTP/1.0\r\nConnection: close\r\n\r\n");
      assertThat(none.status()).as(none.body()).isEqualTo(421);
      assertThat(none.json().getString("error")).contains("a request without a Host header");
      assertThat(metrics(f)).doesNotContain("hostless_cpu");
    }
  }

  @Test
  void aPathSpelledAnotherWayIsRefusedFromAnotherOriginToo() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, null)) {
      for (String path : new String[] {"/x/../api/jvms", "//api/jvms", "/x/%2e%2e/api/jvms"}) {
        RestApiTest.assertError(f.send("GET", path, null, "Origin", "http://evil.example"), 403, "Origin 'http://evil.example'");
        ServiceFixture.Raw raw = f.raw("GET", path, null, "Sec-Fetch-Site: cross-site");
        assertThat(raw.status()).as(path).isEqualTo(403);
      }
      ServiceFixture.Raw add = f.raw("POST", "/js/../api/metrics", metricBody("sideways_cpu"), "Content-Type: application/json",
          "Origin: http://evil.example");
      assertThat(add.status()).isEqualTo(403);
      assertThat(metrics(f)).doesNotContain("sideways_cpu");
    }
  }

  @Test
  void requestsFromPagesOfOtherOriginsAreRefusedAndChangeNothing() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, null)) {
      int port = f.service.port();
      String own = "http://127.0.0.1:" + port;
      HttpResponse<String> json = f.send("POST", "/api/metrics", metricBody("evil_cpu"),
          "Content-Type", "application/json", "Origin", "http://evil.example");
      RestApiTest.assertError(json, 403, "Origin 'http://evil.example' is not this service's own (" + own + ")");
      RestApiTest.assertError(f.send("POST", "/api/metrics", metricBody("evil_cpu"), "Content-Type", "text/plain",
          "Origin", "http://evil.example"), 403, "Origin 'http://evil.example'");
      RestApiTest.assertError(f.send("POST", "/api/metrics", "text=x", "Content-Type", "application/x-www-form-urlencoded",
          "Origin", "http://evil.example"), 403, "Origin");
      RestApiTest.assertError(f.send("POST", "/api/metrics", metricBody("evil_cpu"), "Content-Type", "application/json",
          "Origin", "http://127.0.0.1:1"), 403, "Origin 'http://127.0.0.1:1'");
      RestApiTest.assertError(f.send("POST", "/api/metrics", metricBody("evil_cpu"), "Content-Type", "application/json",
          "Origin", "null"), 403, "Origin 'null'");
      RestApiTest.assertError(f.send("POST", "/api/metrics", metricBody("evil_cpu"), "Content-Type", "application/json",
          "Sec-Fetch-Site", "cross-site"), 403, "Sec-Fetch-Site: cross-site");
      RestApiTest.assertError(f.send("DELETE", "/api/plots/p1", null, "Origin", "http://evil.example"), 403, "Origin");
      RestApiTest.assertError(f.get("/api/jvms", "Origin", "http://evil.example"), 403, "Origin");
      RestApiTest.assertError(f.get("/api/jvms", "Sec-Fetch-Site", "same-site"), 403, "Sec-Fetch-Site: same-site");
      assertThat(metrics(f)).doesNotContain("evil_cpu");

      // A link from another site to the page is a navigation, not an API call.
      assertThat(f.get("/", "Sec-Fetch-Site", "cross-site").statusCode()).isEqualTo(200);
      // The service's own page, and clients that send no Origin, are served.
      HttpResponse<String> page = f.send("POST", "/api/metrics", metricBody("page_cpu"), "Content-Type", "application/json",
          "Origin", own, "Sec-Fetch-Site", "same-origin");
      assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
      assertThat(f.send("POST", "/api/metrics", metricBody("script_cpu"), "Content-Type", "application/json").statusCode())
          .isEqualTo(200);
      assertThat(metrics(f)).contains("page_cpu", "script_cpu").doesNotContain("evil_cpu");
    }
  }

  @Test
  void theLiveSocketUpgradesOnlyForThisServicesOwnPagesAndForClientsWithoutOrigin() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, null)) {
      URI live = URI.create("ws://127.0.0.1:" + f.service.port() + "/api/live");
      Throwable refused = catchThrowable(() -> f.http.newWebSocketBuilder().header("Origin", "http://evil.example")
          .buildAsync(live, new WebSocket.Listener() {}).get(10, TimeUnit.SECONDS));
      assertThat(refused).hasCauseInstanceOf(WebSocketHandshakeException.class);
      HttpResponse<?> answer = ((WebSocketHandshakeException) refused.getCause()).getResponse();
      assertThat(answer.statusCode()).isEqualTo(403);
      assertThat(String.valueOf(answer.body())).contains("Origin 'http://evil.example'");

      for (String origin : new String[] {"http://127.0.0.1:" + f.service.port(), null}) {
        BlockingQueue<JsonObject> received = new LinkedBlockingQueue<>();
        WebSocket.Builder b = f.http.newWebSocketBuilder();
        if (origin != null) {
          b.header("Origin", origin);
        }
        WebSocket ws = b.buildAsync(live, new WebSocket.Listener() {
          @Override
          public CompletionStage<?> onText(WebSocket socket, CharSequence text, boolean last) {
            received.add(new JsonObject(text.toString()));
            socket.request(1);
            return null;
          }
        }).get(10, TimeUnit.SECONDS);
        ws.sendText("{\"op\": \"subscribe\", \"topic\": \"jvms\"}", true).get(5, TimeUnit.SECONDS);
        JsonObject subscribed = received.poll(10, TimeUnit.SECONDS);
        assertThat(subscribed).as(String.valueOf(origin)).isNotNull();
        assertThat(subscribed.getJsonObject("event").getString("type")).isEqualTo("subscribed");
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(5, TimeUnit.SECONDS);
      }
    }
  }
}
