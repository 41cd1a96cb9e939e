package dev.bottlenose.web.service;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The daemon's side of {@code metric.enable} / {@code metric.disable} on the service's event bus, for the
 * web module's tests, which run no target JVM: it answers as a daemon does and keeps the metrics enabled,
 * so a test can tell whether the service left measurements behind. (A real daemon runs in the end-to-end
 * tests of the {@code tests} module.)
 */
final class StandInDaemon implements AutoCloseable {
  final String id;
  private final Vertx vertx;
  /** Enabled metrics: metricId → {metric, focus, requester}. */
  final Map<Long, JsonObject> enabled = new ConcurrentHashMap<>();
  private final AtomicLong next = new AtomicLong(100);
  private final List<MessageConsumer<JsonObject>> consumers;
  private final List<MessageConsumer<JsonObject>> extra = new java.util.concurrent.CopyOnWriteArrayList<>();

  StandInDaemon(Vertx vertx, String id) {
    this.vertx = vertx;
    this.id = id;
    String base = "bottlenose.daemon." + id;
    consumers = List.of(
        vertx.eventBus().<JsonObject>consumer(base + ".metric.enable", m -> {
          long metricId = next.getAndIncrement();
          enabled.put(metricId, m.body().copy());
          m.reply(new JsonObject().put("metricId", metricId).put("focus", m.body().getString("focus")).put("unit", "fraction"));
        }),
        vertx.eventBus().<JsonObject>consumer(base + ".metric.disable", m -> {
          JsonObject was = enabled.remove(m.body().getLong("metricId"));
          m.reply(new JsonObject().put("metricId", m.body().getLong("metricId")).put("disabled", was != null));
        }));
  }

  /**
   * Also registers it in the cluster's list ({@code bottlenose.daemons.list}) as RUNNING, and answers what a
   * search asks first (status, resources, call graph, active metrics) with a target that has no classes yet,
   * so a search over it runs, waiting for evidence, until it is stopped.
   */
  StandInDaemon registered() {
    String base = "bottlenose.daemon." + id;
    JsonObject self = new JsonObject().put("daemonId", id).put("pid", 1).put("mainClass", "StandIn").put("javaVersion", "17")
        .put("host", dev.bottlenose.web.cluster.Daemons.hostName()).put("state", "RUNNING");
    extra.add(vertx.eventBus().<JsonObject>consumer("bottlenose.daemons.list", m -> m.reply(new JsonObject().put("daemons",
        new JsonArray().add(self)))));
    extra.add(vertx.eventBus().<JsonObject>consumer(base + ".status", m -> m.reply(self.copy().put("calibration",
        new JsonObject().put("virtualCallNanos", 2.0).put("allocationNanos", 20.0).put("samplePeriodNanos", 10_000_000.0)))));
    extra.add(vertx.eventBus().<JsonObject>consumer(base + ".resources", m -> m.reply(new JsonObject().put("resources", new JsonArray()))));
    extra.add(vertx.eventBus().<JsonObject>consumer(base + ".callgraph", m -> m.reply(new JsonObject().put("path", m.body().getString("path"))
        .put("samples", 0).put("total", 0).put("children", new JsonArray()).put("hot", new JsonArray()))));
    extra.add(vertx.eventBus().<JsonObject>consumer(base + ".metrics.list", m -> m.reply(new JsonObject().put("metrics", new JsonArray())
        .put("active", new JsonArray()))));
    return this;
  }

  /** One sampling interval: every enabled metric with {@code value}. */
  void sample(double value) {
    JsonArray metrics = new JsonArray();
    enabled.keySet().forEach(metricId -> metrics.add(new JsonObject().put("metricId", metricId).put("value", value)));
    vertx.eventBus().publish("bottlenose.daemon." + id + ".values",
        new JsonObject().put("atMillis", System.currentTimeMillis()).put("metrics", metrics));
  }

  @Override
  public void close() {
    consumers.forEach(MessageConsumer::unregister);
    extra.forEach(MessageConsumer::unregister);
  }
}
