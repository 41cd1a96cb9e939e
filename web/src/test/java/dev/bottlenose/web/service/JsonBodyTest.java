package dev.bottlenose.web.service;

import static dev.bottlenose.web.service.OriginTest.metricBody;
import static dev.bottlenose.web.service.OriginTest.metrics;
import static dev.bottlenose.web.service.RestApiTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bodies other than JSON are 415 before they are read: text, forms (a browser sends them across origins) and multipart. */
class JsonBodyTest {
  @TempDir
  Path data;

  @Test
  void aBodyThatIsNotDeclaredJsonIs415AndChangesNothing() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, null)) {
      assertError(f.send("POST", "/api/metrics", metricBody("plain_cpu"), "Content-Type", "text/plain"), 415,
          "request bodies must be JSON: send Content-Type: application/json, not 'text/plain'");
      assertError(f.send("POST", "/api/metrics", metricBody("bare_cpu")), 415, "a body without Content-Type");
      assertError(f.send("POST", "/api/searches", "daemons=vm-1", "Content-Type", "application/x-www-form-urlencoded"), 415,
          "not 'application/x-www-form-urlencoded'");
      String multipart = "--b\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nmetric x {}\r\n--b--\r\n";
      assertError(f.send("POST", "/api/metrics", multipart, "Content-Type", "multipart/form-data; boundary=b"), 415,
          "not 'multipart/form-data; boundary=b'");
      assertError(f.send("POST", "/api/jvms", "{\"pid\": 1}", "Content-Type", "application/json-patch+json"), 415, "Content-Type");
      assertThat(metrics(f)).doesNotContain("plain_cpu", "bare_cpu");

      // A form field larger than Vert.x's form limit used to fail in the body parser with 500; now it is never parsed.
      String bigForm = "text=" + "x".repeat(300_000);
      assertError(f.send("POST", "/api/metrics", bigForm, "Content-Type", "application/x-www-form-urlencoded"), 415,
          "application/x-www-form-urlencoded");
      assertThat(f.get("/api/searches").statusCode()).as("the client's next request").isEqualTo(200);

      HttpResponse<String> charset = f.send("POST", "/api/metrics", metricBody("json_cpu"), "Content-Type", "Application/JSON; charset=utf-8");
      assertThat(charset.statusCode()).as(charset.body()).isEqualTo(200);
      assertThat(metrics(f)).contains("json_cpu");
      // A body that is not UTF-8 used to be read with replacement characters and taken; now it is refused.
      byte[] latin1 = metricBody("caf\u00e9_cpu").replace("\"x\"", "\"caf\u00e9\"").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
      HttpResponse<String> notUtf8 = f.http.send(java.net.http.HttpRequest.newBuilder(f.uri("/api/metrics"))
          .header("Content-Type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(latin1)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertError(notUtf8, 400, "the body is not UTF-8: byte ");
      assertThat(metrics(f)).doesNotContain("caf\u00e9_cpu", "caf\ufffd_cpu");

      // Over 1 MiB is 413, naming the limit.
      assertError(f.post("/api/metrics/check", "{\"text\": \"" + "a".repeat(1 << 20) + "\"}"), 413,
          "the request body is larger than 1048576 bytes (1 MiB)");

      // No body needs no Content-Type.
      assertError(f.send("POST", "/api/searches/nope/stop", null), 404, "no running search 'nope'");
    }
  }
}
