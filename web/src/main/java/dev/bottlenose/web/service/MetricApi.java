package dev.bottlenose.web.service;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.protocol.DaemonEvents.Announcement;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.consultant.Findings;
import dev.bottlenose.metrics.Diagnostics;
import dev.bottlenose.metrics.DslError;
import dev.bottlenose.metrics.MetricDefinition;
import dev.bottlenose.metrics.MetricLibrary;
import dev.bottlenose.web.cluster.Daemons;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * {@code /api/metrics}: the metric library (the built-ins plus what was added through this service), a
 * check of metric text with line:column errors, and adding metrics to every running daemon.
 */
final class MetricApi {
  private static final Set<String> BUILT_IN = MetricLibrary.builtin().metrics().stream().map(MetricDefinition::name).collect(Collectors.toSet());
  private final Vertx vertx;
  private final Daemons daemons;
  private final AtomicInteger files = new AtomicInteger(1);
  private volatile MetricLibrary library = MetricLibrary.builtin();

  MetricApi(Vertx vertx, Daemons daemons) {
    this.vertx = vertx;
    this.daemons = daemons;
  }

  /** Mounts the routes, each checking its request with {@code checked} (the contract's) first. */
  void mount(Router router, BodyHandler body, Handler<RoutingContext> checked) {
    router.get("/api/metrics").handler(checked).handler(Http.handle(ctx -> Future.succeededFuture(list())));
    router.post("/api/metrics/check").handler(body).handler(checked)
        .handler(Http.handle(ctx -> Future.succeededFuture(check(ctx))));
    router.post("/api/metrics").handler(body).handler(checked).handler(Http.handle(this::add));
  }

  private JsonObject list() {
    JsonArray list = new JsonArray();
    for (MetricDefinition d : library.metrics()) {
      list.add(new JsonObject().put("name", d.name()).put("description", d.description()).put("unit", d.unit())
          .put("unitWords", Findings.metricUnitWords(d.unit()))
          .put("builtIn", BUILT_IN.contains(d.name())).put("refine", new JsonArray(d.refinements())));
    }
    return new JsonObject().put("metrics", list);
  }

  private JsonObject check(RoutingContext ctx) {
    String fileName = "web-" + files.get() + ".metrics";
    Diagnostics d = library.with(fileName, text(ctx));
    if (d.hasErrors()) {
      return new JsonObject().put("ok", false).put("errors", errors(d.errors()));
    }
    return new JsonObject().put("ok", true).put("metrics", new JsonArray(added(d)));
  }

  private Future<?> add(RoutingContext ctx) {
    String fileName = "web-" + files.get() + ".metrics";
    String text = text(ctx);
    Diagnostics d = library.with(fileName, text);
    if (d.hasErrors()) {
      throw new ApiException(400, fileName + " has " + d.errors().size() + " error(s): " + d.errors().get(0).located(),
          new JsonObject().put("errors", errors(d.errors())));
    }
    List<String> added = added(d);
    return daemons.list().compose(all -> {
      List<String> running = all.stream().filter(Announcement::isRunning).map(Announcement::daemonId).toList();
      List<Future<Object>> sent = running.stream().map(id -> vertx.eventBus()
          .request(Addresses.metricsAdd(id), new DaemonRequests.MetricsAdd(fileName, text).toJson())
          .map(m -> m.body())).toList();
      return Future.all(sent).map(v -> {
        library = d.library();
        files.incrementAndGet();
        return new JsonObject().put("added", new JsonArray(added)).put("daemons", new JsonArray(running));
      });
    });
  }

  private List<String> added(Diagnostics d) {
    return d.library().metrics().stream().map(MetricDefinition::name).filter(n -> !library.contains(n)).toList();
  }

  private static JsonArray errors(List<DslError> errors) {
    return new JsonArray(errors.stream().map(e -> (Object) new JsonObject().put("line", e.line()).put("column", e.column())
        .put("message", e.message())).toList());
  }

  private static String text(RoutingContext ctx) {
    return Http.body(ctx).getString("text");
  }
}
