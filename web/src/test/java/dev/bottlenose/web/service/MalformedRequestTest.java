package dev.bottlenose.web.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests the HTTP layer or the router answer before any route: each gets a JSON {@code {"error"}} with
 * the status of API.md (they used to get empty bodies, HTML, plain text, a 500, or no answer at all).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MalformedRequestTest {
  @TempDir
  static Path data;
  private ServiceFixture f;
  private String host;

  @BeforeAll
  void start() throws Exception {
    f = new ServiceFixture(data, null);
    host = "Host: 127.0.0.1:" + f.service.port() + "\r\n";
  }

  @AfterAll
  void stop() throws Exception {
    f.close();
  }

  private static void assertJsonError(ServiceFixture.Raw answer, int status, String message) {
    assertThat(answer).as("an answer").isNotNull();
    assertThat(answer.status()).as(answer.headers() + "\n" + answer.body()).isEqualTo(status);
    assertThat(answer.headers().toLowerCase()).contains("content-type: application/json");
    assertThat(answer.json().getString("error")).contains(message);
  }

  @Test
  void whatTheHttpDecoderRefusesIsAJsonError() throws Exception {
    assertJsonError(f.exchange("G\u00c9T /api/searches HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n"), 400, "a malformed HTTP request");
    assertJsonError(f.exchange("GET /api/searches HTTP/1.1 x\r\n" + host + "Connection: close\r\n\r\n"), 400, "a malformed HTTP request");
    assertJsonError(f.raw("GET", "/api/searches/" + "a".repeat(5000), null), 414, "the request line is longer than 4096 bytes");
    assertJsonError(f.raw("GET", "/api/searches", null, "X-Large: " + "h".repeat(9000)), 431, "headers are larger than 8192 bytes");
    assertJsonError(f.raw("POST", "/api/metrics", "{}", "Content-Type: application/json", "Content-Length: 1",
        "Content-Length: 2"), 400, "a malformed HTTP request");
  }

  @Test
  void whatTheRouterAnswersItselfIsAJsonError() throws Exception {
    assertJsonError(f.raw("GET", "/%zz", null), 400, "malformed request path '/%zz'");
    assertJsonError(f.raw("GET", "/api/searches/%zz", null), 400, "malformed request path");
    // A query string that cannot be decoded used to be a 500 ("request failed with status -1").
    assertJsonError(f.raw("GET", "/api/searches/x/export?%", null), 400, "malformed query string '%'");
    assertJsonError(f.raw("GET", "/nothing.html", null), 404, "not found: GET /nothing.html");
    assertJsonError(f.raw("POST", "/index.html", null), 404, "not found: POST /index.html");
    assertJsonError(f.raw("OPTIONS", "*", null), 400, "the request target '*' is not a path");
  }

  @Test
  void aBodyWhoseEndCannotBeToldIsRefusedNotWaitedFor() throws Exception {
    // The service used to wait for the end of such a body until the client gave up.
    ServiceFixture.Raw identity = f.exchange("POST /api/metrics/check HTTP/1.1\r\n" + host + "Content-Type: application/json\r\n"
        + "Transfer-Encoding: identity\r\nConnection: close\r\n\r\n{\"text\": \"\"}");
    assertJsonError(identity, 400, "Transfer-Encoding 'identity' does not end in chunked");
    assertThat(identity.headers().toLowerCase()).contains("connection: close");

    // A malformed chunked body cannot be answered (where it ends is unknown): the connection is dropped, nothing else.
    ServiceFixture.Raw badChunk = f.exchange("POST /api/metrics HTTP/1.1\r\n" + host + "Content-Type: application/json\r\n"
        + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{\"text\": \"\"}\r\n0\r\n\r\n");
    assertThat(badChunk).as("no answer to a broken chunked body").isNull();
    ServiceFixture.Raw chunked = f.exchange("POST /api/metrics/check HTTP/1.1\r\n" + host + "Content-Type: application/json\r\n"
        + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n6\r\n{\"text\r\n6\r\n\": \"\"}\r\n0\r\n\r\n");
    assertThat(chunked.status()).as(chunked.body()).isEqualTo(200);
    assertThat(chunked.json().getBoolean("ok")).isTrue();
  }

  @Test
  void theServiceSpeaksHttp1Only() throws Exception {
    // An h2c upgrade was answered 101 before the Host was checked; it is an ordinary HTTP/1.1 request now.
    ServiceFixture.Raw h2c = f.raw("GET", "/api/searches", null, "Upgrade: h2c", "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA",
        "Connection: Upgrade, HTTP2-Settings");
    assertThat(h2c.status()).as(h2c.headers()).isEqualTo(200);
    assertThat(h2c.headers()).startsWith("HTTP/1.1 200").doesNotContainIgnoringCase("upgrade: h2c");
    assertThat(new JsonObject(h2c.body()).getJsonArray("searches")).isEmpty();
    // A version the HTTP layer does not know is its 501 with no body (before the service sees the request), as API.md says.
    ServiceFixture.Raw v2 = f.exchange("GET /api/searches HTTP/2.0\r\n" + host + "Connection: close\r\n\r\n");
    assertThat(v2.status()).isEqualTo(501);
    assertThat(v2.body()).isEmpty();
    assertThat(f.get("/api/searches").statusCode()).as("still answering").isEqualTo(200);
  }

  @Test
  void aPageDirectoryRedirectsToItsSlashFormOnThisSiteOnly() throws Exception {
    for (String path : new String[] {"/js", "//js", "/x/../js", "/%2e/js"}) {
      ServiceFixture.Raw js = f.raw("GET", path, null);
      assertThat(js.status()).as(path + ": " + js.headers()).isIn(301, 404);
      if (js.status() == 301) {
        assertThat(js.headers()).as(path).containsIgnoringCase("location: /js/");
      }
    }
  }
}
