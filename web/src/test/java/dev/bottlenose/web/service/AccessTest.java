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
  void aSetTokenIsRequiredAndTheQueryTokenBecomesACookie() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, "s3cret")) {
      HttpResponse<String> none = f.get("/api/searches");
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(new JsonObject(none.body()).getString("error")).contains("needs a token");
      assertThat(f.get("/api/searches", "Authorization", "Bearer wrong").statusCode()).isEqualTo(401);
      assertThat(f.get("/api/searches", "Authorization", "Bearer s3cret").statusCode()).isEqualTo(200);

      HttpResponse<String> login = f.get("/?token=s3cret");
      assertThat(login.statusCode()).isEqualTo(303);
      assertThat(login.headers().firstValue("location")).hasValue("/");
      String cookie = login.headers().firstValue("set-cookie").orElseThrow();
      assertThat(cookie).contains("bottlenose_token=s3cret").containsIgnoringCase("HttpOnly").containsIgnoringCase("SameSite=Strict");
      assertThat(f.get("/api/searches", "Cookie", "bottlenose_token=s3cret").statusCode()).isEqualTo(200);
      assertThat(f.get("/api/searches", "Cookie", "bottlenose_token=nope").statusCode()).isEqualTo(401);
      assertThat(f.get("/?token=nope").statusCode()).isEqualTo(401);
    }
  }

  @Test
  void anotherAddressWithoutATokenIsRefused() {
    assertThatThrownBy(() -> Access.forHost("0.0.0.0", null)).hasMessageContaining("needs a token");
    assertThat(Access.forHost("0.0.0.0", "t").needsToken()).isTrue();
    assertThat(Access.forHost("127.0.0.1", null).needsToken()).isFalse();
  }
}
