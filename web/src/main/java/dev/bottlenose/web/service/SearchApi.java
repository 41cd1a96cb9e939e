package dev.bottlenose.web.service;

import dev.bottlenose.bus.protocol.DaemonEvents.Announcement;
import dev.bottlenose.consultant.Comparison;
import dev.bottlenose.consultant.Findings;
import dev.bottlenose.consultant.Hypothesis;
import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.MetricNeed;
import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.SearchStore;
import dev.bottlenose.consultant.ShgEdge;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.consultant.ValueSeries;
import dev.bottlenose.model.json.Json;
import dev.bottlenose.web.cluster.Daemons;
import dev.bottlenose.web.render.SearchExport;
import dev.bottlenose.web.render.ShgLayout;
import dev.bottlenose.web.render.ShgView;
import dev.bottlenose.web.render.StackExports;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/** {@code /api/searches}: start, list, one search, a node, stop, export, the graph's view, findings. */
final class SearchApi {
  private final Vertx vertx;
  private final Searches searches;
  private final Daemons daemons;
  private final Limits limits;
  /** The client of each search started over HTTP (a key of {@code "?n"}: one still starting); guarded by itself. */
  private final Map<String, String> clients = new LinkedHashMap<>();
  private final AtomicInteger starting = new AtomicInteger();

  SearchApi(Vertx vertx, Searches searches, Daemons daemons, Limits limits) {
    this.vertx = vertx;
    this.searches = searches;
    this.daemons = daemons;
    this.limits = limits;
  }

  /** Mounts the routes, each checking its request with {@code checked} (the contract's) first. */
  void mount(Router router, BodyHandler body, Handler<RoutingContext> checked) {
    router.post("/api/searches").handler(body).handler(checked).handler(Http.handle(this::start));
    router.get("/api/searches").handler(checked).handler(Http.handle(ctx -> list()));
    router.get("/api/searches/:id").handler(checked).handler(Http.handle(ctx -> one(ctx.pathParam("id"))));
    router.get("/api/searches/:id/nodes/:nodeId").handler(checked).handler(Http.handle(ctx -> node(ctx.pathParam("id"),
        ((Number) ApiContract.param(ctx, "nodeId")).intValue())));
    router.post("/api/searches/:id/stop").handler(checked).handler(Http.handle(ctx ->
        Future.succeededFuture(searches.stop(ctx.pathParam("id"), "stopped by the user"))));
    router.get("/api/searches/:id/export").handler(checked).handler(Http.handle(ctx -> export(ctx.pathParam("id"),
        ctx.queryParams().get("format"), ctx.queryParams().get("daemon"), ctx.queryParams().get("graph"), viewOptions(ctx))));
    router.get("/api/searches/:id/view").handler(checked).handler(Http.handle(ctx -> view(ctx.pathParam("id"), viewOptions(ctx))));
    router.get("/api/searches/:id/findings").handler(checked)
        .handler(Http.handle(ctx -> findings(ctx.pathParam("id"))));
    router.get("/api/searches/:id/stacks").handler(checked).handler(Http.handle(ctx -> stacks(ctx.pathParam("id"),
        ctx.queryParams().get("daemon"), ctx.queryParams().get("graph"), ctx.queryParams().get("through"))));
  }

  private Future<?> start(RoutingContext ctx) {
    SearchRequest request = SearchRequest.parse(Searches.newId(), Http.body(ctx));
    String slot = reserve(Access.client(ctx));
    Future<Searches.Live> started;
    try {
      started = start(request);
    } catch (RuntimeException e) {
      settle(slot, null);
      throw e;
    }
    return started.andThen(ar -> settle(slot, ar.succeeded() ? ar.result().id() : null))
        .map(l -> Http.Reply.json(201, new JsonObject().put("searchId", l.id())));
  }

  /** Checks the body and the daemons, then starts the search (for the service's own callers: no client, no per-client limit). */
  Future<Searches.Live> start(JsonObject body) {
    return start(SearchRequest.parse(Searches.newId(), body));
  }

  /**
   * Holds a place for one more running search of {@code client}, or refuses with 429 when the client or
   * the service runs as many as {@link Limits} allows; the place's key, for {@link #settle}.
   */
  private String reserve(String client) {
    synchronized (clients) {
      clients.keySet().removeIf(id -> !id.startsWith("?") && !isRunning(id));
      List<String> mine = clients.entrySet().stream().filter(e -> e.getValue().equals(client)).map(Map.Entry::getKey).toList();
      String stop = "stop one with POST /api/searches/{searchId}/stop, or wait until one ends";
      if (mine.size() >= limits.searchesPerClient()) {
        List<String> ids = mine.stream().filter(id -> !id.startsWith("?")).toList();
        throw new ApiException(429, "client " + client + " runs " + limits.searchesPerClient() + " searches"
            + (ids.isEmpty() ? "" : " (" + String.join(", ", ids) + ")") + ", the most one client may run at once, since each takes"
            + " up to its budget of its targets' CPU: " + stop, new JsonObject().put("limit", limits.searchesPerClient())
            .put("searches", new JsonArray(ids)));
      }
      long running = searches.running().stream().filter(l -> !l.search().isFinished()).count()
          + clients.keySet().stream().filter(id -> id.startsWith("?")).count();
      if (running >= limits.searchesInAll()) {
        throw new ApiException(429, "the service runs " + limits.searchesInAll() + " searches, the most it runs at once, since each"
            + " takes up to its budget of its targets' CPU: " + stop, new JsonObject().put("limit", limits.searchesInAll()));
      }
      String slot = "?" + starting.incrementAndGet();
      clients.put(slot, client);
      return slot;
    }
  }

  /** The search of {@code slot} started as {@code searchId}, or did not start (null). */
  private void settle(String slot, String searchId) {
    synchronized (clients) {
      String client = clients.remove(slot);
      if (client != null && searchId != null) {
        clients.put(searchId, client);
      }
    }
  }

  private boolean isRunning(String searchId) {
    Searches.Live l = searches.live(searchId);
    return l != null && !l.search().isFinished();
  }

  private Future<Searches.Live> start(SearchRequest request) {
    return daemons.list().compose(all -> {
      for (String id : request.daemons()) {
        Announcement d = all.stream().filter(o -> id.equals(o.daemonId())).findFirst().orElse(null);
        if (d == null) {
          return Future.failedFuture(ApiException.notFound("unknown daemon '" + id + "' (GET /api/jvms lists the registered ones)"));
        }
        if (!d.isRunning()) {
          return Future.failedFuture(new ApiException(410, "daemon '" + id + "': its target is " + d.state()));
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
            .put("endReason", l.search().endReason()).put("findings", l.search().findings().size()).put("nodes", g.nodes().size()));
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

  /** Saved entries get their daemons, budget and findings from the files (read on a worker). */
  private Future<JsonObject> withSavedDetails(JsonObject answer) {
    List<Future<Void>> reads = answer.getJsonArray("searches").stream().map(o -> (JsonObject) o)
        .filter(o -> !o.containsKey("daemons"))
        .map(o -> searches.open(o.getString("searchId")).<Void>map(s -> {
          o.remove("trueNodes");
          o.put("daemons", new JsonArray(Searches.daemonsOf(s))).put("budget", budget(s))
              .put("findings", Findings.of(s).size()).put("recordings", recordings(s));
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
          .put("graph", json(s.graph().toJson())).put("budget", budget).put("recordings", recordings(s));
    });
  }

  /** The JFR recordings a saved search kept ({@code format=jfr}), or why it has none of a JVM. */
  private static JsonArray recordings(SavedSearch s) {
    return new JsonArray(s.recordings().stream().map(r -> (Object) json(r.toJson())).toList());
  }

  private Future<?> node(String id, int nodeId) {
    return searches.open(id).map(s -> {
      ShgNode n = s.graph().node(nodeId);
      if (n == null) {
        throw ApiException.notFound("search '" + id + "' has no node " + nodeId);
      }
      Hypothesis h = s.hypotheses().get(n.hypothesis());
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
      JsonObject hypothesis = h == null ? null : new JsonObject().put("name", h.displayName()).put("unit", h.unit())
          .put("comparison", h.comparison() == Comparison.ABOVE ? ">" : "<").put("hysteresis", h.hysteresis());
      return new JsonObject().put("node", json(n.toJson())).put("series", series).put("threshold", finite(n.threshold()))
          .put("unit", Findings.unitWords(h)).put("hypothesis", hypothesis).put("reason", n.reason())
          .put("parents", new JsonArray(edges.stream().filter(e -> e.to() == nodeId).map(ShgEdge::from).toList()))
          .put("children", new JsonArray(edges.stream().filter(e -> e.from() == nodeId).map(ShgEdge::to).toList()));
    });
  }

  /**
   * The search in {@code format} ({@link SearchExport}): its graph (as svg, the view of {@code view}, as {@code /view}
   * lays it out), or the stacks it kept of {@code daemon} (default its first) and {@code graph} (default cpu); a pprof
   * file comes as an attachment.
   */
  private Future<?> export(String id, String format, String daemon, String graph, ShgView.Options view) {
    SearchExport f = SearchExport.named(format == null ? "json" : format);
    String g = graph == null ? "cpu" : graph;
    if (f != SearchExport.SVG && !view.equals(ShgView.Options.DEFAULT)) {
      throw ApiException.badRequest("show, to, depth, collapsed, expanded and open choose the view an svg export draws;"
          + " format " + f.formatName() + " takes none of them");
    }
    if (f == SearchExport.JFR) {
      // the file (up to 80 MB) is sent as it is read, not read into memory first
      return searches.open(id).map(s -> {
        if (searches.live(id) != null) {
          throw ApiException.notFound("search '" + id + "' has not ended yet: it keeps its JVMs' JFR recordings as it"
              + " ends");
        }
        try {
          return new Http.FileReply(SearchExport.recordingFile(s, daemon, searches.store()), f.contentType(),
              Map.of("Content-Disposition", "attachment; filename=\"" + SearchExport.recordingFileName(s, daemon) + "\""));
        } catch (NoSuchElementException e) {
          throw ApiException.notFound(e.getMessage());
        }
      });
    }
    return searches.open(id).map(s -> {
      SearchExport.Output out;
      try {
        out = f.write(s, daemon, g, null, view);
      } catch (NoSuchElementException e) {
        throw ApiException.notFound(e.getMessage() + whyNoStacks(id));
      }
      return new Http.Reply(200, out.contentType(), Buffer.buffer(out.body()), f.binary()
          ? Map.of("Content-Disposition", "attachment; filename=\"" + out.fileName() + "\"") : Map.of());
    });
  }

  /**
   * The sampled stacks a search kept as it ended, of one of its JVMs ({@code daemon}, default its first) and one
   * graph ({@code graph}, default cpu), in the shape of {@code GET /api/jvms/{id}/stacks}; only those through code
   * {@code through} when given ({@link Through}). A running search keeps none yet (its JVMs' are live on that
   * address).
   */
  private Future<?> stacks(String id, String daemon, String kept, String through) {
    String graph = kept == null ? "cpu" : kept;
    return searches.open(id).compose(s -> {
      String d = StackExports.daemonOrFirst(s, daemon);
      SavedSearch.Stacks found = StackExports.find(s, d, graph).orElseThrow(() -> ApiException.notFound("search '" + id
          + "' kept no " + graph + " stacks" + (d == null ? "" : " of " + d) + whyNoStacks(id)));
      JsonObject all = new JsonObject().put("searchId", id).put("daemonId", found.daemon()).put("graph", graph)
          .put("counts", JvmApi.STACK_GRAPHS.get(graph)).put("samples", found.samples())
          .put("frames", Through.json(found.frames()));
      return Through.code(vertx, found.daemon(), through).map(code -> Through.keep(all, code));
    });
  }

  /** Why search {@code id} may have kept no stacks, after a colon. */
  private String whyNoStacks(String id) {
    return searches.live(id) != null
        ? ": a running search keeps them when it ends; its JVMs' are at /api/jvms/{daemonId}/stacks"
        : ": they are kept when the search ends and its daemon answers";
  }

  /**
   * What of the search's graph is drawn with {@code options}, laid out ({@link ShgLayout}): a running search's graph
   * as it is (no snapshot of its values), a saved one's from its file; laid out on a worker, as ELK takes a few
   * hundred milliseconds for hundreds of boxes.
   */
  private Future<?> view(String id, ShgView.Options options) {
    Searches.Live l = searches.live(id);
    return l != null
        ? searches.blocking(() -> view(id, !l.search().isFinished(), l.search().graph(), l.search().hypotheses(),
            l.search().findings(), options))
        : searches.open(id).compose(s -> searches.blocking(() -> view(id, false, s.graph(), s.hypotheses(), Findings.of(s),
            options)));
  }

  private static JsonObject view(String id, boolean running, SearchHistoryGraph graph, HypothesisCatalog hypotheses,
      List<Findings.Finding> findings, ShgView.Options options) {
    ShgLayout layout = ShgLayout.of(ShgView.of(graph, hypotheses, ShgView.nodesOf(findings), options));
    return new JsonObject().put("searchId", id).put("running", running).mergeIn(json(layout.toJson()));
  }

  /** The view's options from the query: the filter, its nodes, the depth to collapse below, and the nodes toggled. */
  private static ShgView.Options viewOptions(RoutingContext ctx) {
    String show = (String) ApiContract.param(ctx, "show");
    Set<Integer> to = ids(ctx, "to");
    ShgView.Show filter = show == null ? (to.isEmpty() ? null : ShgView.Show.NODES) : ShgView.Show.byWord(show);
    if ((filter == ShgView.Show.NODES) != !to.isEmpty()) {
      throw new ApiException(400, "'to' names the nodes of show=nodes, and only of it: show is " + (show == null ? "not given" : "'" + show + "'")
          + (to.isEmpty() ? ", to is not given" : ", to is " + to));
    }
    Number depth = (Number) ApiContract.param(ctx, "depth");
    return new ShgView.Options(filter, to, depth == null ? 0 : depth.intValue(), ids(ctx, "collapsed"), ids(ctx, "expanded"),
        ids(ctx, "open"));
  }

  /** The node ids of query parameter {@code name}, comma-separated (the contract checked them). */
  private static Set<Integer> ids(RoutingContext ctx, String name) {
    String list = (String) ApiContract.param(ctx, name);
    return list == null || list.isEmpty() ? Set.of()
        : java.util.Arrays.stream(list.split(",")).map(Integer::valueOf).collect(Collectors.toSet());
  }

  /**
   * A running search's findings from its graph as it is (no snapshot of its values), a saved one's from its file
   * ({@code saved}: with what only the file has, a lock's holders, and a flame graph only of the stacks a search
   * keeps, {@link StackExports#GRAPHS}: not of the JIT's compilations or the classes defined).
   */
  private Future<?> findings(String id) {
    Searches.Live l = searches.live(id);
    Future<List<Findings.Finding>> found = l != null ? Future.succeededFuture(l.search().findings()) : searches.open(id).map(Findings::of);
    return found.map(list -> new JsonObject().put("searchId", id).put("running", l != null && !l.search().isFinished())
        .put("saved", l == null).put("findings", new JsonArray(list.stream()
            .map(f -> (Object) (l == null ? keptFlame(new JsonObject(f.toJson())) : new JsonObject(f.toJson()))).toList())));
  }

  /** A saved search's {@code finding} without its flame graph when the search kept no stacks of that graph's kind. */
  private static JsonObject keptFlame(JsonObject finding) {
    JsonObject flame = finding.getJsonObject("flame");
    return flame != null && !StackExports.GRAPHS.contains(flame.getString("graph")) ? finding.putNull("flame") : finding;
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
