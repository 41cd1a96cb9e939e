package dev.bottlenose.web.service;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.protocol.BadField;
import dev.bottlenose.bus.protocol.DaemonEvents;
import dev.bottlenose.bus.protocol.DaemonReplies;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.bus.protocol.Fields;
import dev.bottlenose.consultant.Findings;
import dev.bottlenose.metrics.VmAppBreakdown;
import dev.bottlenose.metrics.VmAppBreakdown.Category;
import dev.bottlenose.model.CodeNames;
import dev.bottlenose.model.Focus;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.ToLongFunction;

/**
 * Live views that measure: a plot (one metric on one focus) and the VM-vs-app breakdown (a metric per
 * category on one focus). The first interval after the metrics are enabled is left out: it holds what the
 * inserting of probes and the starting of sources cost (a plot once read 530-600% there), not the program. Each enables its metrics on the daemon ({@code metric.enable}), follows the
 * daemon's {@code values} samples, publishes on its live topic, and disables them again on delete, when no
 * WebSocket has subscribed to it for {@link Limits#unwatched} (after it was made, or after its last
 * subscriber left), or when the service closes: probes nobody looks at do not stay in the target.
 */
final class Plots {
  /** The breakdown's categories ({@link VmAppBreakdown}): app, VM and wait time, each VM cost once. */
  static final List<Category> CATEGORIES = VmAppBreakdown.CATEGORIES;
  private static final String CPU = VmAppBreakdown.CPU;

  /** One live view: its id, the client that made it, its daemon, its enabled metrics (metricId by key) and its values consumer. */
  private record View(String id, String client, String topic, String daemonId, Map<String, Long> metricIds,
      MessageConsumer<JsonObject> values) {}

  private final Vertx vertx;
  private final BiConsumer<String, JsonObject> publish;
  private final ToLongFunction<String> subscribers;
  private final Limits limits;
  private final Map<String, View> views = new ConcurrentHashMap<>();
  /** The timer that removes a view nobody watches, by topic. */
  private final Map<String, Long> unwatched = new ConcurrentHashMap<>();
  private final AtomicInteger next = new AtomicInteger(1);
  /** Views being made (their metrics being enabled), by client: they count against the limits already. */
  private final Map<String, Integer> making = new HashMap<>();

  /**
   * @param publish sends an event to a live topic's subscribers
   * @param subscribers how many WebSockets are subscribed to a topic
   */
  /** How long after an enable timed out its late reply, if any, has surely come (the bus's time-out is 30 s). */
  static final long LATE_REPLY_MILLIS = 35_000;

  Plots(Vertx vertx, BiConsumer<String, JsonObject> publish, ToLongFunction<String> subscribers, Limits limits) {
    this.vertx = vertx;
    this.publish = publish;
    this.subscribers = subscribers;
    this.limits = limits;
  }

  /** Mounts the routes, each checking its request with {@code checked} (the contract's) first. */
  void mount(Router router, BodyHandler body, Handler<RoutingContext> checked) {
    router.post("/api/plots").handler(body).handler(checked).handler(Http.handle(this::plot));
    router.delete("/api/plots/:plotId").handler(checked).handler(Http.handle(ctx ->
        remove("plot:" + ctx.pathParam("plotId"), "plotId", ctx.pathParam("plotId"))));
    router.post("/api/vmapp").handler(body).handler(checked).handler(Http.handle(this::vmApp));
    router.delete("/api/vmapp/:viewId").handler(checked).handler(Http.handle(ctx ->
        remove("vmapp:" + ctx.pathParam("viewId"), "viewId", ctx.pathParam("viewId"))));
  }

  boolean isTopic(String topic) {
    return views.containsKey(topic);
  }

  private Future<?> plot(RoutingContext ctx) {
    JsonObject body = Http.body(ctx);
    String daemonId = body.getString("daemonId");
    String metric = body.getString("metric");
    Future<Focus> resolved = focus(daemonId, body);
    String client = Access.client(ctx);
    reserve(client);
    String id = "p" + next.getAndIncrement();
    return resolved.compose(focus -> enable(daemonId, metric, focus, "web plot " + id).map(reply -> {
      long metricId = reply.metricId();
      String topic = "plot:" + id;
      AtomicBoolean first = new AtomicBoolean(true);
      MessageConsumer<JsonObject> values = vertx.eventBus().consumer(values(daemonId), m -> {
        DaemonEvents.Sample sample = sample(m.body());
        DaemonEvents.MetricValue v = sample == null ? null : sample.metric(metricId);
        if (v != null && !first.getAndSet(false)) {
          publish.accept(topic, new JsonObject().put("atMillis", sample.atMillis()).put("value", v.value()));
        }
      });
      views.put(topic, new View(id, client, topic, daemonId, Map.of(metric, metricId), values));
      removeUnlessWatched(topic);
      return Http.Reply.json(201, new JsonObject().put("plotId", id).put("metric", metric)
          .put("focus", reply.focus() == null ? focus.toString() : reply.focus()).put("unit", reply.unit())
          .put("unitWords", Findings.metricUnitWords(reply.unit())));
    })).andThen(ar -> release(client));
  }

  private Future<?> vmApp(RoutingContext ctx) {
    JsonObject body = Http.body(ctx);
    String daemonId = body.getString("daemonId");
    Future<Focus> resolved = focus(daemonId, body);
    String client = Access.client(ctx);
    reserve(client);
    String id = "v" + next.getAndIncrement();
    return resolved.compose(focus -> vmApp(daemonId, focus, client, id)).andThen(ar -> release(client));
  }

  private Future<Http.Reply> vmApp(String daemonId, Focus focus, String client, String id) {
    Map<String, Future<DaemonReplies.ActiveMetric>> enabling = new LinkedHashMap<>();
    for (Category c : CATEGORIES) {
      if (c.metric() != null) {
        enabling.put(c.key(), enable(daemonId, VmAppBreakdown.metric(c, focus), focus, "web vm-vs-app " + id));
      }
    }
    enabling.put(CPU, enable(daemonId, CPU, focus, "web vm-vs-app " + id));
    return Future.join(new ArrayList<>(enabling.values())).transform(ar -> {
      Map<String, Long> ids = new LinkedHashMap<>();
      Map<String, String> errors = new LinkedHashMap<>();
      enabling.forEach((key, f) -> {
        if (f.succeeded()) {
          ids.put(key, f.result().metricId());
        } else {
          errors.put(key, f.cause().getMessage());
        }
      });
      if (ids.isEmpty()) {
        return Future.failedFuture(enabling.values().iterator().next().cause());
      }
      String topic = "vmapp:" + id;
      AtomicBoolean first = new AtomicBoolean(true);
      MessageConsumer<JsonObject> values = vertx.eventBus().consumer(values(daemonId), m -> {
        DaemonEvents.Sample sample = sample(m.body());
        if (sample != null && !sample.metrics().isEmpty() && !first.getAndSet(false)) {
          publish.accept(topic, shares(sample, ids));
        }
      });
      views.put(topic, new View(id, client, topic, daemonId, ids, values));
      removeUnlessWatched(topic);
      JsonArray categories = new JsonArray();
      for (Category c : CATEGORIES) {
        JsonObject o = new JsonObject().put("key", c.key()).put("label", c.label()).put("kind", c.kind());
        String error = c.metric() == null ? (ids.containsKey(CPU) ? null : errors.get(CPU)) : errors.get(c.key());
        categories.add(error == null ? o : o.put("error", error));
      }
      String unit = enabling.values().stream().filter(Future::succeeded).findFirst().orElseThrow().result().unit();
      return Future.succeededFuture(Http.Reply.json(201, new JsonObject().put("viewId", id).put("focus", focus.toString())
          .put("categories", categories).put("unitWords", Findings.metricUnitWords(unit))));
    });
  }

  /**
   * Holds a place for one more view of {@code client}, or refuses with 429 when the client or the service
   * has as many as {@link Limits} allows, naming the limit and how to free a place.
   */
  private synchronized void reserve(String client) {
    List<String> mine = views.values().stream().filter(v -> v.client().equals(client)).map(View::id).sorted().toList();
    int all = views.size() + making.values().stream().mapToInt(Integer::intValue).sum();
    String free = "remove one that is no longer needed with DELETE /api/plots/{plotId} or DELETE /api/vmapp/{viewId}";
    if (mine.size() + making.getOrDefault(client, 0) >= limits.viewsPerClient()) {
      throw new ApiException(429, "client " + client + " has " + limits.viewsPerClient() + " live plots and VM-vs-app views"
          + (mine.isEmpty() ? "" : " (" + String.join(", ", mine) + ")") + ", the most one client may have at once, since each puts"
          + " probes in a running JVM: " + free, new JsonObject().put("limit", limits.viewsPerClient()).put("views", new JsonArray(mine)));
    }
    if (all >= limits.viewsInAll()) {
      throw new ApiException(429, "the service has " + limits.viewsInAll() + " live plots and VM-vs-app views, the most it keeps at"
          + " once, since each puts probes in a running JVM: " + free + ", or wait until one nobody watches ends ("
          + limits.unwatched().toSeconds() + " s after its last subscriber left)", new JsonObject().put("limit", limits.viewsInAll()));
    }
    making.merge(client, 1, Integer::sum);
  }

  private synchronized void release(String client) {
    making.computeIfPresent(client, (k, n) -> n > 1 ? n - 1 : null);
  }

  /** One interval's shares: each category's metric value; compiled = CPU with the focus on the stack minus interpreted. */
  static JsonObject shares(DaemonEvents.Sample sample, Map<String, Long> ids) {
    Map<Long, Double> byId = new java.util.HashMap<>();
    for (DaemonEvents.MetricValue v : sample.metrics()) {
      if (v.value() != null) {
        byId.put(v.metricId(), v.value());
      }
    }
    Map<String, Double> byKey = new java.util.HashMap<>();
    ids.forEach((key, metricId) -> {
      Double value = byId.get(metricId);
      if (value != null) {
        byKey.put(key, value);
      }
    });
    JsonObject shares = new JsonObject();
    VmAppBreakdown.shares(byKey).forEach(shares::put);
    return new JsonObject().put("atMillis", sample.atMillis()).put("shares", shares);
  }

  /** A published sample, or null when it has a bad field (a daemon of another version): it is passed over. */
  private static DaemonEvents.Sample sample(JsonObject body) {
    try {
      return DaemonEvents.Sample.from(body);
    } catch (BadField e) {
      return null;
    }
  }

  private Future<DaemonReplies.ActiveMetric> enable(String daemonId, String metric, Focus focus, String requester) {
    return vertx.eventBus().<JsonObject>request(Addresses.metricEnable(daemonId),
        new DaemonRequests.MetricEnable(metric, focus, requester, null).toJson())
        .map(m -> DaemonReplies.ActiveMetric.from(m.body()))
        .recover(e -> {
          if (e instanceof ReplyException r && r.failureType() == ReplyFailure.TIMEOUT) {
            vertx.setTimer(LATE_REPLY_MILLIS, t -> sweep(daemonId, requester, metric));
          }
          return Future.failedFuture(Http.status(e) == 503 ? unknownDaemon(daemonId) : e);
        });
  }

  private static ApiException unknownDaemon(String daemonId) {
    return ApiException.notFound("unknown daemon '" + daemonId + "' (no daemon answered; GET /api/jvms lists the registered ones)");
  }

  /**
   * An enable whose reply timed out may still have enabled the metric, with no view to record it: once a late
   * reply would have come, the metric {@code requester} asked for is disabled wherever the daemon lists it.
   */
  private void sweep(String daemonId, String requester, String metric) {
    vertx.eventBus().<JsonObject>request(Addresses.metricsList(daemonId), new JsonObject()).onSuccess(reply -> {
      for (DaemonReplies.ActiveMetric m : DaemonReplies.MetricsList.from(reply.body()).active()) {
        if (requester.equals(m.requester()) && metric.equals(m.metric())) {
          vertx.eventBus().request(Addresses.metricDisable(daemonId),
              new DaemonRequests.MetricDisable(m.metricId()).toJson());
        }
      }
    });
  }

  private Future<?> remove(String topic, String field, String id) {
    View v = views.get(topic);
    if (v == null) {
      throw ApiException.notFound("no live " + topic.substring(0, topic.indexOf(':')) + " '" + id + "'");
    }
    return disable(topic).map(x -> new JsonObject().put(field, id).put("removed", true));
  }

  /** The last WebSocket subscribed to {@code topic} left: the view goes unless one subscribes within the grace period. */
  void abandoned(String topic) {
    if (views.containsKey(topic)) {
      removeUnlessWatched(topic);
    }
  }

  /** (Re)starts the grace period of {@code topic}: when it ends with no subscriber, the view is removed. */
  private void removeUnlessWatched(String topic) {
    long timer = vertx.setTimer(Math.max(1, limits.unwatched().toMillis()), id -> {
      if (unwatched.remove(topic, id) && views.containsKey(topic) && subscribers.applyAsLong(topic) == 0) {
        disable(topic);
      }
    });
    Long before = unwatched.put(topic, timer);
    if (before != null) {
      vertx.cancelTimer(before);
    }
  }

  private Future<Void> disable(String topic) {
    View v = views.remove(topic);
    Long timer = unwatched.remove(topic);
    if (timer != null) {
      vertx.cancelTimer(timer);
    }
    if (v == null) {
      return Future.succeededFuture();
    }
    v.values().unregister();
    List<Future<Object>> off = v.metricIds().values().stream().map(metricId -> vertx.eventBus()
        .request(Addresses.metricDisable(v.daemonId()), new DaemonRequests.MetricDisable(metricId).toJson())
        .map(m -> m.body())).toList();
    return Future.join(off).mapEmpty();
  }

  Future<Void> closeAll() {
    return Future.join(views.keySet().stream().map(this::disable).toList()).mapEmpty();
  }

  private static String values(String daemonId) {
    return Addresses.values(daemonId);
  }

  /**
   * The body's focus, the whole program when it has none: the contract's text ({@code </Code/com.acme>}), or a place
   * written as Java writes it ({@code com.acme.Cache::get}, {@code com.acme.Cache.get(Object)}, a class, a package),
   * which the daemon resolves in its target as the commands do ({@code codepath}; {@link Through#resolve}, which the
   * stacks' {@code through} uses too). A malformed focus is refused here
   * (400), a name that matches nothing or several places by the daemon (400, saying how far it was found or
   * listing the candidates).
   */
  private Future<Focus> focus(String daemonId, JsonObject body) {
    String text = body.getString("focus");
    if (text == null || !CodeNames.isJavaName(text)) {
      Focus focus = Fields.of(body).focus("focus");
      return Future.succeededFuture(focus == null ? Focus.WHOLE_PROGRAM : focus);
    }
    return Through.resolve(vertx, daemonId, text).map(Focus::of)
        .recover(e -> Future.failedFuture(Http.status(e) == 503 ? unknownDaemon(daemonId) : e));
  }
}
