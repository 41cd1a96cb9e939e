package dev.bottlenose.web.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiveSocketTest {
  @TempDir
  Path data;

  @Test
  void subscriptionsAreAnsweredAndBadMessagesGetErrors() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, null)) {
      BlockingQueue<JsonObject> received = new LinkedBlockingQueue<>();
      WebSocket ws = f.http.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + f.service.port() + "/api/live"),
          new WebSocket.Listener() {
            private final StringBuilder text = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
              text.append(data);
              if (last) {
                received.add(new JsonObject(text.toString()));
                text.setLength(0);
              }
              socket.request(1);
              return null;
            }
          }).get(10, TimeUnit.SECONDS);

      ws.sendText("{\"op\": \"subscribe\", \"topic\": \"jvms\"}", true).get(5, TimeUnit.SECONDS);
      JsonObject subscribed = received.poll(10, TimeUnit.SECONDS);
      assertThat(subscribed.getString("topic")).isEqualTo("jvms");
      assertThat(subscribed.getJsonObject("event").getString("type")).isEqualTo("subscribed");

      ws.sendText("{\"op\": \"subscribe\", \"topic\": \"plot:p77\"}", true).get(5, TimeUnit.SECONDS);
      assertThat(received.poll(10, TimeUnit.SECONDS).getString("error")).contains("unknown topic 'plot:p77'");
      ws.sendText("{\"op\": \"jump\", \"topic\": \"jvms\"}", true).get(5, TimeUnit.SECONDS);
      assertThat(received.poll(10, TimeUnit.SECONDS).getString("error")).contains("unknown op 'jump'");
      ws.sendText("hello", true).get(5, TimeUnit.SECONDS);
      assertThat(received.poll(10, TimeUnit.SECONDS).getString("error")).contains("not a JSON object");
      ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void aBrokenHandshakeIsAJsonError() throws Exception {
    try (ServiceFixture f = new ServiceFixture(data, null)) {
      String ok = "Upgrade: websocket|Connection: Upgrade|Sec-WebSocket-Version: 13|Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==";
      // Vert.x answered these in plain text (400 "\"Connection\" header must be \"Upgrade\".", a 413 for a body).
      String[][] cases = {
          {ok.replace("Connection: Upgrade", "Connection: keep-alive"), "expected Connection: Upgrade"},
          {ok.replace("Upgrade: websocket", "Upgrade: foo"), "expected Upgrade: websocket"},
          {ok.replace("Sec-WebSocket-Version: 13", "Sec-WebSocket-Version: 8"), "Sec-WebSocket-Version must be 13"},
          {ok.replace("|Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", ""), "no Sec-WebSocket-Key"}};
      for (String[] c : cases) {
        ServiceFixture.Raw r = f.raw("GET", "/api/live", null, c[0].split("\\|"));
        assertThat(r.status()).as(c[0] + ": " + r.body()).isEqualTo(400);
        assertThat(r.json().getString("error")).contains("not a WebSocket upgrade: " + c[1]);
      }
      ServiceFixture.Raw notUri = f.raw("GET", "/api/live?a=\u0000", null, ok.split("\\|"));
      assertThat(notUri.status()).isEqualTo(400);
      assertThat(notUri.json().getString("error")).contains("not a WebSocket upgrade: the request target is not a URI");
      ServiceFixture.Raw withBody = f.raw("GET", "/api/live", "{\"k\": \"" + "v".repeat(100_000) + "\"}",
          (ok + "|Content-Type: application/json").split("\\|"));
      assertThat(withBody.status()).isEqualTo(400);
      assertThat(withBody.json().getString("error")).contains("a handshake has no body");
    }
  }
}
