package dev.bottlenose.web.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessTest {
  @TempDir
  Path data;

  @Test
  void onLoopbackNoTokenIsNeeded() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, null)) {
      assertThat(f.get("/api/searches").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aSetTokenIsRequiredByTheApiButNeverTakenFromAQuery() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, "s3cret-s3cret-s3cret")) {
      HttpResponse<String> none = f.get("/api/searches");
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(new JsonObject(none.body()).getString("error")).contains("needs a token").contains("#token=");
      assertThat(f.get("/api/searches", "Authorization", "Bearer wrong").statusCode()).isEqualTo(401);
      assertThat(f.get("/api/searches", "Authorization", "Bearer s3cret-s3cret-s3cret").statusCode()).isEqualTo(200);
      assertThat(f.get("/api/searches", "Cookie", "bottlenose_token=s3cret-s3cret-s3cret").statusCode()).isEqualTo(200);
      assertThat(f.get("/api/searches", "Cookie", "bottlenose_token=nope").statusCode()).isEqualTo(401);

      // The query form is gone: it put the token in histories, logs and Referer headers.
      assertThat(f.get("/api/searches?token=s3cret-s3cret-s3cret").statusCode()).isEqualTo(401);
      HttpResponse<String> page = f.get("/?token=s3cret-s3cret-s3cret");
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("set-cookie")).isEmpty();
      // The pages are public code and load without the token, so the page can read it from its fragment.
      assertThat(f.get("/").statusCode()).isEqualTo(200);
      assertThat(f.get("/js/app.js").body()).contains("/api/session");
    }
  }

  @Test
  void anApiPathSpelledAnotherWayNeedsTheTokenToo() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, "s3cret-s3cret-s3cret")) {
      // The router normalizes these to /api/searches; the token rule used to look at the raw path and let them through.
      for (String path : new String[] {"/x/../api/searches", "/./api/searches", "//api/searches", "/x/%2e%2e/api/searches",
          "/api//searches", "/js/../api/searches?x=1"}) {
        ServiceFixture.Raw without = f.raw("GET", path, null);
        assertThat(without.status()).as(path + ": " + without.body()).isEqualTo(401);
        assertThat(without.json().getString("error")).contains("needs a token");
        ServiceFixture.Raw with = f.raw("GET", path, null, "Authorization: Bearer s3cret-s3cret-s3cret");
        assertThat(with.status()).as(path + ": " + with.body()).isEqualTo(200);
        assertThat(with.json().getJsonArray("searches")).isEmpty();
      }
    }
  }

  @Test
  void theSessionSetsTheCookieOnlyForTheRightToken() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, "s3cret-s3cret-s3cret")) {
      HttpResponse<String> wrong = f.post("/api/session", "{\"token\": \"s3cret-s3cret-s3creT\"}");
      RestApiTest.assertError(wrong, 401, "wrong token");
      assertThat(wrong.headers().firstValue("set-cookie")).isEmpty();
      RestApiTest.assertError(f.post("/api/session", "{\"token\": 42}"), 400,
          "'token' must be a non-empty string, is 42: the service's token");
      RestApiTest.assertError(f.send("POST", "/api/session", "{\"token\": \"s3cret-s3cret-s3cret\"}", "Content-Type", "application/json",
          "Origin", "http://evil.example"), 403, "Origin");
      RestApiTest.assertError(f.send("POST", "/api/session", "{\"token\": \"s3cret-s3cret-s3cret\"}", "Content-Type", "text/plain"),
          415, "application/json");

      String own = "http://127.0.0.1:" + f.service.port();
      HttpResponse<String> right = f.send("POST", "/api/session", "{\"token\": \"s3cret-s3cret-s3cret\"}",
          "Content-Type", "application/json", "Origin", own);
      assertThat(right.statusCode()).as(right.body()).isEqualTo(200);
      assertThat(new JsonObject(right.body()).getBoolean("session")).isTrue();
      String cookie = right.headers().firstValue("set-cookie").orElseThrow();
      assertThat(cookie).contains("bottlenose_token=s3cret-s3cret-s3cret").containsIgnoringCase("HttpOnly")
          .containsIgnoringCase("SameSite=Strict").contains("Path=/");
      assertThat(f.get("/api/searches", "Cookie", cookie.split(";")[0]).statusCode()).isEqualTo(200);
    }
    try (ServiceFixture f = new ServiceFixture(data, null)) {
      HttpResponse<String> open = f.post("/api/session", "{\"token\": \"anything-at-all\"}");
      assertThat(new JsonObject(open.body()).getBoolean("tokenNeeded")).isFalse();
      assertThat(open.headers().firstValue("set-cookie")).isEmpty();
    }
  }

  @Test
  void anotherAddressWithoutATokenIsRefused() {
    assertThatThrownBy(() -> Access.forHost("0.0.0.0", null)).hasMessageContaining("needs a token");
    assertThat(Access.forHost("0.0.0.0", "t").needsToken()).isTrue();
    assertThat(Access.forHost("127.0.0.1", null).needsToken()).isFalse();
  }

  @Test
  void aWildcardBindAllowsThisMachinesNamesAndAddresses() throws Exception {
    assertThat(Access.allowedHosts("127.0.0.1")).containsExactly("localhost", "127.0.0.1", "::1");
    assertThat(Access.allowedHosts("My-Host.example")).containsExactly("localhost", "127.0.0.1", "::1", "my-host.example");
    assertThat(Access.allowedHosts("0.0.0.0")).contains("localhost", "0.0.0.0",
        java.net.InetAddress.getLocalHost().getHostName().toLowerCase(java.util.Locale.ROOT));
  }
}
