package dev.bottlenose.web.service;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.web.cluster.ClusterSearches;
import dev.bottlenose.web.cluster.Daemons;
import dev.bottlenose.consultant.bus.SearchAnnouncer;
import dev.bottlenose.consultant.bus.SearchRunner;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.StaticHandler;
import io.vertx.ext.web.RoutingContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The service: the REST API of web/API.md, the live WebSocket {@code /api/live}, {@code /health} and {@code
 * /metrics}, the pages from {@code webroot/} and the WebJars, on one Vert.x HTTP server, behind the token rule
 * ({@link Access}); every API request is checked against the API's contract, {@code openapi.yaml}
 * ({@link ApiContract}), which {@code GET /api/openapi.yaml} serves.
 */
public final class WebService {
  /** The largest request body read (1 MiB): more is 413. */
  static final int BODY_LIMIT = 1 << 20;
  /** How long {@code /health} and {@code /metrics} wait for the cluster's daemon registry (then: its last count). */
  private static final long DAEMONS_TIMEOUT_MILLIS = 2_000;
  /**
   * Where and how to serve.
   *
   * @param token the token every API request must carry, or null (loopback only)
   * @param attachAnyUser whether {@code POST /api/jvms} may attach to JVMs of users other than the service's
   * @param unwatched how long a plot or VM-vs-app view is kept without a WebSocket subscribed to it (null:
   *     30 s); shorter for tests that watch it go
   */
  public record Options(String host, int port, String token, Path dataDirectory, boolean attachAnyUser, Duration unwatched) {
    public Options {
      if (unwatched != null && (unwatched.isNegative() || unwatched.isZero())) {
        throw new IllegalArgumentException("the grace period of an unwatched view must be positive, is " + unwatched);
      }
    }

    /** Unwatched views kept 30 s. */
    public Options(String host, int port, String token, Path dataDirectory, boolean attachAnyUser) {
      this(host, port, token, dataDirectory, attachAnyUser, null);
    }

    /** Attaching only to this user's JVMs. */
    public Options(String host, int port, String token, Path dataDirectory) {
      this(host, port, token, dataDirectory, false);
    }
  }

  private final Vertx vertx;
  private final Daemons daemons;
  private final Options options;
  private final Searches searches;
  private final Plots plots;
  private final SearchApi searchApi;
  private final LiveHub hub;
  private final MessageConsumer<JsonObject> daemonEvents;
  private final ClusterSearches clusterSearches;
  private final ServiceMetrics metrics;
  private final ApiContract contract;
  private volatile boolean closing;
  private HttpServer server;
  private Router router;

  private WebService(Vertx vertx, Daemons daemons, Options options, Limits limits, ServiceMetrics metrics,
      ApiContract contract) {
    this.vertx = vertx;
    this.daemons = daemons;
    this.options = options;
    this.metrics = metrics;
    this.contract = contract;
    this.plots = new Plots(vertx, this::publish, this::subscribers, limits);
    this.hub = new LiveHub(this::isTopic, plots::abandoned);
    this.searches = new Searches(vertx, options.dataDirectory(), l -> {
          metrics.searchStarted(l);
          jvmsChanged();
        },
        e -> {
          metrics.searchEvent(e.searchId(), e.event());
          hub.publish("search:" + e.searchId(), e.event());
          if ("searchEnded".equals(e.event().getString("type")) || isFamilyChange(e.event())) {
            jvmsChanged();
          }
        });
    this.searchApi = new SearchApi(vertx, searches, daemons, limits);
    this.daemonEvents = vertx.eventBus().consumer(Addresses.DAEMONS, m -> jvmsChanged());
    this.clusterSearches = new ClusterSearches(vertx, this::jvmsChanged);
    metrics.watch(searches);
  }

  /**
   * Starts serving with meters of its own ({@code GET /metrics} then has Bottlenose's, not Vert.x's); the future has
   * the service once it listens (see {@link #port()}).
   */
  public static Future<WebService> start(Vertx vertx, Daemons daemons, Options options) {
    return start(vertx, daemons, options, new ServiceMetrics());
  }

  /**
   * Starts serving, with its meters in {@code metrics} (one service's): {@code GET /metrics} has Vert.x's own too
   * when {@code vertx} was built with {@link ServiceMetrics#vertxMetrics()}. The future has the service once it
   * listens (see {@link #port()}).
   */
  public static Future<WebService> start(Vertx vertx, Daemons daemons, Options options, ServiceMetrics metrics) {
    Limits limits = options.unwatched() == null ? Limits.DEFAULT : Limits.DEFAULT.withUnwatched(options.unwatched());
    Access access;
    try {
      access = Access.forHost(options.host(), options.token());
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return ApiContract.load(vertx).compose(contract -> {
      WebService service = new WebService(vertx, daemons, options, limits, metrics, contract);
      Router router = service.router(access);
      service.router = router;
      // HTTP/1.1 only: no h2c upgrade (it answered 101 before the Host was checked) and no prior-knowledge HTTP/2.
      HttpServerOptions http = new HttpServerOptions().setHost(options.host()).setPort(options.port())
          .setHttp2ClearTextEnabled(false);
      return vertx.createHttpServer(http)
          .invalidRequestHandler(Http::invalidRequest)
          .requestHandler(request -> {
            if (access.admit(request)) {
              router.handle(request);
            }
          }).listen()
          .recover(e -> Future.failedFuture(new IllegalStateException("cannot serve on " + options.host() + ":"
              + options.port() + ": " + e.getMessage()
              + (options.port() == 0 ? "" : " (another port: --port P, or --port 0 for a free one)"), e)))
          .map(s -> {
            service.server = s;
            service.searches.rememberSaved();
            return service;
          });
    });
  }

  private Router router(Access access) {
    Router router = Router.router(vertx);
    BodyHandler body = BodyHandler.create(false).setBodyLimit(BODY_LIMIT);
    router.route().handler(access);
    router.route().handler(Http::jsonBodiesOnly);
    // Each API route checks its request against the contract (ApiContract) before it does anything.
    Handler<RoutingContext> checked = contract.checks();
    router.post(Access.SESSION).handler(body).handler(checked).handler(Http.handle(access::session));
    router.get("/api/openapi.yaml").handler(checked).handler(ctx -> ctx.response()
        .putHeader("Content-Type", "application/yaml; charset=utf-8").end(contract.yaml()));
    router.get("/api/openapi.json").handler(checked).handler(ctx -> ctx.response()
        .putHeader("Content-Type", "application/json; charset=utf-8").end(contract.json()));
    router.get("/api/live").handler(checked).handler(ctx -> {
      String problem = webSocketProblem(ctx.request());
      if (problem != null) {
        Http.fail(ctx, ApiException.badRequest("not a WebSocket upgrade: " + problem));
        return;
      }
      ctx.request().toWebSocket().onSuccess(hub::accept)
          .onFailure(e -> Http.fail(ctx, ApiException.badRequest("not a WebSocket upgrade: " + e.getMessage())));
    });
    new JvmApi(vertx, daemons, searches, clusterSearches, options.attachAnyUser()).mount(router, body, checked);
    searchApi.mount(router, body, checked);
    new MetricApi(vertx, daemons).mount(router, body, checked);
    plots.mount(router, body, checked);
    router.get("/health").handler(checked).handler(Http.handle(ctx -> health()));
    router.get("/metrics").handler(checked).handler(ctx -> askDaemons().onComplete(ar -> ctx.next()))
        .handler(metrics.scraping());
    router.route("/api/*").handler(ctx -> Http.fail(ctx, ApiException.notFound("no API endpoint " + ctx.request().method() + " " + ctx.request().path())));
    router.route("/webjars/*").handler(StaticHandler.create("META-INF/resources/webjars"));
    router.route("/*").handler(StaticHandler.create("webroot").setIndexPage("index.html"));
    router.route().failureHandler(ctx -> Http.fail(ctx, failure(ctx)));
    // What the router answers itself (no route, a path it cannot decode, a failing failure handler): JSON too.
    for (int status : new int[] {400, 404, 405, 413, 500}) {
      router.errorHandler(status, ctx -> Http.fail(ctx, failure(ctx, status)));
    }
    return router;
  }

  /**
   * {@code GET /health}: {@code {"status": "up", "clusterMembers", "daemons", "searchesRunning"}}, or 503 with
   * {@code "status": "down"} and a {@code "reason"} once the cluster's Vert.x is closing or closed, this member has
   * left the cluster, or the service is stopping.
   */
  private Future<Http.Reply> health() {
    String down = closing ? "the service is stopping" : down(vertx);
    int members = 0;
    if (down == null) {
      try {
        members = clusterMembers(vertx);
      } catch (RuntimeException e) {
        down = "the cluster does not answer: " + e.getMessage();
      }
    }
    if (down != null) {
      return Future.succeededFuture(Http.Reply.json(503, health("down", 0).put("reason", down)));
    }
    int counted = members;
    return askDaemons().map(v -> Http.Reply.json(200, health("up", counted)));
  }

  private JsonObject health(String status, int clusterMembers) {
    return new JsonObject().put("status", status).put("clusterMembers", clusterMembers)
        .put("daemons", metrics.daemons()).put("searchesRunning", ServiceMetrics.running(searches));
  }

  /** Why {@code vertx} cannot serve (closing or closed, or no longer in its cluster), or null when it can. */
  static String down(Vertx vertx) {
    if (!(vertx instanceof VertxInternal v)) {
      return null;
    }
    if (v.closeFuture().isClosed()) {
      return "the cluster's Vert.x is closing or closed";
    }
    ClusterManager cluster = v.clusterManager();
    return cluster != null && !cluster.isActive() ? "this member has left the cluster" : null;
  }

  /** The members of the cluster {@code vertx} is in, this one included; 1 for a Vert.x that is not clustered. */
  static int clusterMembers(Vertx vertx) {
    ClusterManager cluster = vertx instanceof VertxInternal v ? v.clusterManager() : null;
    return cluster == null ? 1 : cluster.getNodes().size();
  }

  /**
   * Asks the cluster's registry for its daemons and keeps their count for {@code /health} and {@code /metrics}; one
   * that does not answer within {@value #DAEMONS_TIMEOUT_MILLIS} ms leaves the last count. Never fails.
   */
  private Future<Void> askDaemons() {
    return daemons.list().timeout(DAEMONS_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
        .<Void>transform(ar -> {
          if (ar.succeeded()) {
            metrics.daemons(ar.result().size());
          }
          return Future.succeededFuture();
        });
  }

  /** Why a request to {@code /api/live} is no WebSocket handshake this service takes, or null (checked before Vert.x, which answers in plain text). */
  static String webSocketProblem(HttpServerRequest request) {
    String upgrade = request.getHeader("Upgrade");
    String connection = request.getHeader("Connection");
    String key = request.getHeader("Sec-WebSocket-Key");
    if (upgrade == null || !upgrade.trim().equalsIgnoreCase("websocket")) {
      return "expected Upgrade: websocket, not " + (upgrade == null ? "none" : "'" + upgrade + "'");
    }
    if (connection == null || !connection.toLowerCase(Locale.ROOT).contains("upgrade")) {
      return "expected Connection: Upgrade, not " + (connection == null ? "none" : "'" + connection + "'");
    }
    if (key == null || key.isBlank()) {
      return "no Sec-WebSocket-Key";
    }
    try {
      new java.net.URI(request.uri());
    } catch (java.net.URISyntaxException e) {
      return "the request target is not a URI: " + e.getMessage();
    }
    String length = request.getHeader("Content-Length");
    if (request.getHeader("Transfer-Encoding") != null || length != null && !length.trim().equals("0")) {
      return "a handshake has no body";
    }
    if (!"13".equals(request.getHeader("Sec-WebSocket-Version"))) {
      return "Sec-WebSocket-Version must be 13, is " + request.getHeader("Sec-WebSocket-Version");
    }
    return null;
  }

  /** A failed route's answer: the failure's own status, else the router's (a 413 from the body handler says the limit). */
  private static Throwable failure(RoutingContext ctx) {
    return failure(ctx, ctx.statusCode());
  }

  /** {@link #failure(RoutingContext)} when the router's status is {@code status} (its error handlers are not told it). */
  private static Throwable failure(RoutingContext ctx, int status) {
    Throwable e = ctx.failure();
    String path = ctx.request().path();
    if (status == 413) {
      return new ApiException(413, "the request body is larger than " + BODY_LIMIT + " bytes (1 MiB), the most the service reads");
    }
    if (e == null) {
      return new ApiException(status > 0 ? status : 500, switch (status) {
        case 404 -> "not found: " + ctx.request().method() + " " + path;
        case 405 -> "method " + ctx.request().method() + " is not allowed on " + path;
        case 400 -> "a malformed request: its path or query string cannot be decoded: '" + ctx.request().uri() + "'";
        default -> "request failed with status " + status;
      });
    }
    if (status >= 400 && status < 500 && Http.status(e) == 500) {
      return new ApiException(status, status == 400 && e instanceof IllegalArgumentException
          ? "malformed request path '" + path + "': " + e.getMessage() : e.getMessage() == null ? "request failed with status " + status : e.getMessage());
    }
    return e;
  }

  private boolean isTopic(String topic) {
    if (topic.equals("jvms")) {
      return true;
    }
    if (topic.startsWith("search:")) {
      return true;
    }
    return plots.isTopic(topic);
  }

  private static boolean isFamilyChange(JsonObject event) {
    JsonObject node = event.getJsonObject("node");
    return node != null && SearchAnnouncer.FAMILIES.contains(node.getString("hypothesis"));
  }

  private void jvmsChanged() {
    hub.publish("jvms", new JsonObject().put("type", "changed"));
  }

  private void publish(String topic, JsonObject event) {
    hub.publish(topic, event);
  }

  private long subscribers(String topic) {
    return hub.subscribers(topic);
  }

  public int port() {
    return server.actualPort();
  }

  /** Starts a search as {@code POST /api/searches} would (same body, same checks); the runner once it steps. */
  public Future<SearchRunner> startSearch(JsonObject body) {
    return contract.checkBody(HttpMethod.POST, "/api/searches", body).compose(v -> {
      try {
        return searchApi.start(body).map(l -> l.runner);
      } catch (RuntimeException e) {
        return Future.failedFuture(e);
      }
    });
  }

  /**
   * The operations the router serves where {@link Access} guards (the API, {@code /health}, {@code /metrics}), as
   * {@code METHOD /path/{param}}: what the contract must hold.
   */
  Set<String> operations() {
    Set<String> all = new TreeSet<>();
    for (Route r : router.getRoutes()) {
      if (r.getPath() != null && r.isExactPath() && Access.isGuarded(r.getPath()) && r.methods() != null) {
        r.methods().forEach(m -> all.add(ApiContract.operation(m, r.getPath())));
      }
    }
    return all;
  }

  /**
   * Stops the running searches (each saved), removes plots, closes sockets and the server; {@code /health} is down
   * from now on.
   */
  public Future<Void> close() {
    closing = true;
    return searches.stopAll("the service stopped")
        .eventually(plots::closeAll)
        .eventually(() -> {
          hub.close();
          daemonEvents.unregister();
          clusterSearches.close();
          return server == null ? Future.succeededFuture() : server.close();
        }).mapEmpty();
  }
}
