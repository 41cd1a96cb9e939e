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
}
