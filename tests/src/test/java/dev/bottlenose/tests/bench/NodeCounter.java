package dev.bottlenose.tests.bench;

import io.vertx.core.Handler;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;

/** Follows a search's SHG events: how many nodes, how many true, and the most tested at once. */
final class NodeCounter implements Handler<Message<JsonObject>> {
  private final Map<Integer, String> states = new HashMap<>();
  private int maxTesting;

  @Override
  public synchronized void handle(Message<JsonObject> m) {
    JsonObject node = m.body().getJsonObject("node");
    if (node == null) {
      return;
    }
    states.put(node.getInteger("id"), node.getString("state"));
    maxTesting = Math.max(maxTesting, (int) states.values().stream().filter("testing"::equals).count());
  }

  synchronized int nodes() {
    return states.size();
  }

  synchronized int trueNodes() {
    return (int) states.values().stream().filter("true"::equals).count();
  }

  synchronized int maxTesting() {
    return maxTesting;
  }
}
