package dev.bottlenose.web.service;

import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The live updates of {@code GET /api/live}: each WebSocket subscribes to topics ({@code jvms},
 * {@code search:<id>}, {@code plot:<id>}, {@code vmapp:<id>}); {@link #publish} sends an event to every
 * subscriber of its topic as {@code {"topic","event"}}.
 */
final class LiveHub {
  private final Map<ServerWebSocket, Set<String>> sockets = new ConcurrentHashMap<>();
  private final Predicate<String> knownTopic;
  private final Consumer<String> abandoned;

  /**
   * @param knownTopic whether a topic exists (a subscription to another is answered with an error)
   * @param abandoned called with a topic when the last socket that subscribed to it closed
   */
  LiveHub(Predicate<String> knownTopic, Consumer<String> abandoned) {
    this.knownTopic = knownTopic;
    this.abandoned = abandoned;
  }

  void accept(ServerWebSocket socket) {
    sockets.put(socket, ConcurrentHashMap.newKeySet());
    socket.textMessageHandler(text -> onMessage(socket, text));
    socket.closeHandler(v -> {
      Set<String> topics = sockets.remove(socket);
      if (topics != null) {
        topics.stream().filter(t -> subscribers(t) == 0).forEach(abandoned);
      }
    });
  }

  private void onMessage(ServerWebSocket socket, String text) {
    JsonObject m;
    try {
      m = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      socket.writeTextMessage(new JsonObject().putNull("topic").put("error", "not a JSON object: " + e.getMessage()).encode());
      return;
    }
    String op = m.getValue("op") instanceof String s ? s : null;
    String topic = m.getValue("topic") instanceof String s ? s : null;
    Set<String> topics = sockets.get(socket);
    if (topics == null) {
      return;
    }
    if (topic == null) {
      socket.writeTextMessage(new JsonObject().putNull("topic").put("error", "a message needs a string 'topic'").encode());
    } else if ("subscribe".equals(op)) {
      if (knownTopic.test(topic)) {
        topics.add(topic);
        socket.writeTextMessage(new JsonObject().put("topic", topic).put("event", new JsonObject().put("type", "subscribed")).encode());
      } else {
        socket.writeTextMessage(new JsonObject().put("topic", topic).put("error", "unknown topic '" + topic
            + "': expected jvms, search:<id>, plot:<id> or vmapp:<id> of a live one").encode());
      }
    } else if ("unsubscribe".equals(op)) {
      if (topics.remove(topic) && subscribers(topic) == 0) {
        abandoned.accept(topic);
      }
    } else {
      socket.writeTextMessage(new JsonObject().put("topic", topic).put("error", "unknown op '" + op + "': expected subscribe or unsubscribe").encode());
    }
  }

  void publish(String topic, JsonObject event) {
    String text = null;
    for (Map.Entry<ServerWebSocket, Set<String>> e : sockets.entrySet()) {
      if (e.getValue().contains(topic)) {
        if (text == null) {
          text = new JsonObject().put("topic", topic).put("event", event).encode();
        }
        e.getKey().writeTextMessage(text);
      }
    }
  }

  long subscribers(String topic) {
    return sockets.values().stream().filter(t -> t.contains(topic)).count();
  }

  void close() {
    sockets.keySet().forEach(ServerWebSocket::close);
  }
}
