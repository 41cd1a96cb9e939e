package dev.bottlenose.web.service;

import dev.bottlenose.consultant.Hypothesis;
import dev.bottlenose.consultant.MetricNeed;
import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.SearchStore;
import dev.bottlenose.consultant.ShgEdge;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.consultant.ValueSeries;
import dev.bottlenose.model.json.Json;
import dev.bottlenose.web.cluster.Daemons;
import dev.bottlenose.web.render.Bottlenecks;
import dev.bottlenose.web.render.SvgWriter;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** {@code /api/searches}: start, list, one search, a node, stop, export, bottlenecks. */
final class SearchApi {
  private final Searches searches;
  private final Daemons daemons;

  SearchApi(Searches searches, Daemons daemons) {
    this.searches = searches;
    this.daemons = daemons;
  }

  void mount(Router router, BodyHandler body) {
    router.post("/api/searches").handler(body).handler(Http.handle(this::start));
    router.get("/api/searches").handler(Http.handle(ctx -> list()));
    router.get("/api/searches/:id").handler(Http.handle(ctx -> one(ctx.pathParam("id"))));
    router.get("/api/searches/:id/nodes/:nodeId").handler(Http.handle(ctx -> node(ctx.pathParam("id"), ctx.pathParam("nodeId"))));
    router.post("/api/searches/:id/stop").handler(Http.handle(ctx ->
        Future.succeededFuture(searches.stop(ctx.pathParam("id"), "stopped by the user"))));
    router.get("/api/searches/:id/export").handler(Http.handle(ctx -> export(ctx.pathParam("id"), ctx.queryParams().get("format"))));
    router.get("/api/searches/:id/bottlenecks").handler(Http.handle(ctx -> bottlenecks(ctx.pathParam("id"))));
  }

  private Future<?> start(RoutingContext ctx) {
    return start(Http.body(ctx)).map(l -> Http.Reply.json(201, new JsonObject().put("searchId", l.id())));
  }

  /** Checks the body and the daemons, then starts the search. */
  Future<Searches.Live> start(JsonObject body) {
    SearchRequest request = SearchRequest.parse(Searches.newId(), body);
    return daemons.list().compose(all -> {
      for (String id : request.daemons()) {
        JsonObject d = all.stream().filter(o -> id.equals(o.getString("daemonId"))).findFirst().orElse(null);
        if (d == null) {
          return Future.failedFuture(ApiException.notFound("unknown daemon '" + id + "' (GET /api/jvms lists the registered ones)"));
        }
        if (!"RUNNING".equals(d.getString("state"))) {
          return Future.failedFuture(new ApiException(410, "daemon '" + id + "': its target is " + d.getString("state")));
        }
      }
      return searches.start(request);
    });
  }

  private Future<?> list() {
    return searches.saved().map(saved -> {
      JsonArray list = new JsonArray();
      Set<String> live = searches.running().stream().map(Searches.Live::id).collect(Collectors.toSet());
      for (Searches.Live l : searches.running()) {
        SearchHistoryGraph g = l.search().graph();
        list.add(new JsonObject().put("searchId", l.id()).put("running", !l.search().isFinished())
            .put("startedAt", l.search().startedAtMillis()).put("endedAt", l.search().endedAtMillis())
            .put("daemons", new JsonArray(l.daemons)).put("budget", l.search().settings().number("budget.fraction"))
            .put("endReason", l.search().endReason()).put("trueLeaves", g.trueLeaves().size()).put("nodes", g.nodes().size()));
      }
      for (SearchStore.Summary s : saved) {
        if (!live.contains(s.id())) {
          list.add(new JsonObject().put("searchId", s.id()).put("running", false).put("startedAt", s.startedAtMillis())
              .put("endedAt", s.endedAtMillis()).put("endReason", s.endReason()).put("nodes", s.nodes()).put("trueNodes", s.trueNodes()));
        }
      }
      return new JsonObject().put("searches", list);
    }).compose(this::withSavedDetails);
  }

  /** Saved entries get their daemons, budget and true leaves from the files (read on a worker). */
  private Future<JsonObject> withSavedDetails(JsonObject answer) {
    List<Future<Void>> reads = answer.getJsonArray("searches").stream().map(o -> (JsonObject) o)
        .filter(o -> !o.containsKey("daemons"))
        .map(o -> searches.open(o.getString("searchId")).<Void>map(s -> {
          o.remove("trueNodes");
          o.put("daemons", new JsonArray(Searches.daemonsOf(s))).put("budget", budget(s))
              .put("trueLeaves", s.graph().trueLeaves().size());
          return null;
        }).otherwise((Void) null)).toList();
    return Future.join(reads).map(v -> answer);
  }

  private Future<?> one(String id) {
    return searches.open(id).map(s -> {
      Searches.Live l = searches.live(id);
      JsonObject budget = l != null ? Searches.budgetEvent(l) : new JsonObject().put("fraction", budget(s)).putNull("load");
      budget.remove("type");
      JsonObject settings = new JsonObject();
      new java.util.TreeMap<>(s.settings()).forEach(settings::put);
      return new JsonObject().put("searchId", id).put("running", l != null && !l.search().isFinished())
          .put("settings", settings)
          .put("startedAt", s.startedAtMillis()).put("endedAt", s.endedAtMillis()).put("endReason", s.endReason())
          .put("daemons", new JsonArray(Searches.daemonsOf(s)))
          .put("graph", json(s.graph().toJson())).put("budget", budget);
    });
  }

  private Future<?> node(String id, String nodeText) {
    int nodeId;
    try {
      nodeId = Integer.parseInt(nodeText);
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("node id '" + nodeText + "' is not a number");
    }
    return searches.open(id).map(s -> {
      ShgNode n = s.graph().node(nodeId);
      if (n == null) {
        throw ApiException.notFound("search '" + id + "' has no node " + nodeId);
      }
      Hypothesis h = Searches.catalog(s).get(n.hypothesis());
      Set<String> metrics = h == null ? Set.of() : h.needs().stream().map(MetricNeed::metric).collect(Collectors.toSet());
      JsonArray series = new JsonArray();
      for (ValueSeries v : s.series()) {
        if (metrics.contains(v.request().metric()) && v.request().focus().equals(n.focus())) {
          JsonArray points = new JsonArray();
          v.points().forEach(p -> points.add(new JsonArray().add(p.atMillis()).add(finite(p.value())).add(finite(p.cost()))));
          series.add(new JsonObject().put("metric", v.request().metric()).put("focus", v.request().focus().toString()).put("points", points));
        }
      }
      List<ShgEdge> edges = s.graph().edges();
      return new JsonObject().put("node", json(n.toJson())).put("series", series).put("threshold", finite(n.threshold()))
          .put("reason", n.reason())
          .put("parents", new JsonArray(edges.stream().filter(e -> e.to() == nodeId).map(ShgEdge::from).toList()))
          .put("children", new JsonArray(edges.stream().filter(e -> e.from() == nodeId).map(ShgEdge::to).toList()));
    });
  }

  private Future<?> export(String id, String format) {
    String f = format == null ? "json" : format;
    if (!Set.of("json", "dot", "svg").contains(f)) {
      throw ApiException.badRequest("unknown export format '" + f + "': expected json, dot or svg");
    }
    return searches.open(id).map(s -> {
      String body = switch (f) {
        case "json" -> Json.write(s.toJson());
        case "dot" -> s.graph().toDot();
        default -> SvgWriter.write(s.graph());
      };
      String type = switch (f) {
        case "json" -> "application/json; charset=utf-8";
        case "dot" -> "text/vnd.graphviz; charset=utf-8";
        default -> "image/svg+xml; charset=utf-8";
      };
      return new Http.Reply(200, type, Buffer.buffer(body, "UTF-8"));
    });
  }

  private Future<?> bottlenecks(String id) {
    return searches.open(id).map(s -> new JsonObject().put("searchId", id).put("bottlenecks",
        new JsonArray(Bottlenecks.of(s.graph(), Searches.catalog(s)).stream().map(b -> (Object) new JsonObject(b.toJson())).toList())));
  }

  private static Object budget(SavedSearch s) {
    String b = s.settings().get("budget.fraction");
    try {
      return b == null ? null : Double.parseDouble(b);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static JsonObject json(java.util.Map<String, Object> map) {
    return new JsonObject(Json.write(map));
  }

  private static Object finite(double d) {
    return Double.isNaN(d) || Double.isInfinite(d) ? null : d;
  }
}
