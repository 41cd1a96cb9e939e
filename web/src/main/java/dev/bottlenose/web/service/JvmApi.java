package dev.bottlenose.web.service;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.protocol.DaemonEvents.Announcement;
import dev.bottlenose.bus.protocol.DaemonReplies;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.bus.protocol.SearchEvents;
import dev.bottlenose.daemon.attach.JvmInfo;
import dev.bottlenose.daemon.attach.LocalJvms;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.web.cluster.ClusterSearches;
import dev.bottlenose.web.cluster.Daemons;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** {@code /api/jvms}, {@code /api/local-jvms}: the daemons' JVMs with their status dots, JVMs to attach to, resources. */
final class JvmApi {
  private final Vertx vertx;
  private final Daemons daemons;
  private final Searches searches;
  private final ClusterSearches clusterSearches;
  private final boolean anyUser;

  /** @param anyUser whether to attach to JVMs of other users too ({@code serve --attach-any-user}) */
  JvmApi(Vertx vertx, Daemons daemons, Searches searches, ClusterSearches clusterSearches, boolean anyUser) {
    this.vertx = vertx;
    this.daemons = daemons;
    this.searches = searches;
    this.clusterSearches = clusterSearches;
    this.anyUser = anyUser;
  }

  /** Mounts the routes, each checking its request with {@code checked} (the contract's) first. */
  void mount(Router router, BodyHandler body, Handler<RoutingContext> checked) {
    router.get("/api/jvms").handler(checked).handler(Http.handle(ctx -> jvms()));
    router.post("/api/jvms").handler(body).handler(checked).handler(Http.handle(this::attach));
    router.get("/api/local-jvms").handler(checked).handler(Http.handle(ctx -> localJvms()));
    router.get("/api/jvms/:daemonId/resources").handler(checked)
        .handler(Http.handle(ctx -> resources(ctx.pathParam("daemonId"), ctx.queryParam("path"))));
    router.get("/api/jvms/:daemonId/stacks").handler(checked).handler(Http.handle(ctx ->
        stacks(ctx.pathParam("daemonId"), (String) ApiContract.param(ctx, "graph"),
            (Number) ApiContract.param(ctx, "max"), (String) ApiContract.param(ctx, "through"))));
  }

  /**
   * The daemons' JVMs, each with its status dots and the searches in the cluster that cover it, whichever member runs
   * them ({@code own}: this service, whose search page shows it live).
   */
  private Future<?> jvms() {
    Future<List<SearchEvents.Announcement>> running = clusterSearches.list().otherwise(List.of());
    return Future.all(daemons.list(), running).map(both -> {
      List<SearchEvents.Announcement> inCluster = running.result();
      JsonArray list = new JsonArray();
      for (Announcement d : both.<List<Announcement>>resultAt(0)) {
        JsonArray covering = new JsonArray(inCluster.stream().filter(s -> s.covers(d.daemonId()))
            .map(s -> (Object) s.toJson().put("own", clusterSearches.isOwn(s))).toList());
        list.add(new JsonObject().put("daemonId", d.daemonId()).put("pid", d.pid())
            .put("mainClass", d.mainClass()).put("javaVersion", d.javaVersion()).put("host", d.host())
            .put("state", d.isRunning() ? "running" : "exited").put("daemonState", d.state())
            .put("status", searches.status(d.daemonId(), clusterSearches.latestElsewhere(d.daemonId())))
            .put("searches", covering));
      }
      return new JsonObject().put("jvms", list);
    });
  }

  private Future<?> attach(RoutingContext ctx) {
    long pid = ((Number) Http.body(ctx).getValue("pid")).longValue();
    if (pid == ProcessHandle.current().pid()) {
      throw ApiException.badRequest("pid " + pid + " is this service itself");
    }
    Future<Void> allowed = anyUser ? Future.succeededFuture() : vertx.executeBlocking(() -> {
      checkOwner(pid);
      return null;
    }, false);
    return allowed.compose(v -> daemons.forPid(pid)).map(d -> Http.Reply.json(201,
        new JsonObject().put("daemonId", d.daemonId()).put("pid", d.pid())));
  }

  /**
   * Refuses (403) a process another user runs: a service running as root could otherwise put probes in
   * any user's JVM for whoever reaches it. A pid with no process passes, for the daemon to say so.
   */
  static void checkOwner(long pid) {
    Path proc = Path.of("/proc", Long.toString(pid));
    String me = System.getProperty("user.name");
    String owner;
    boolean mine;
    try {
      if (Files.isDirectory(Path.of("/proc/self"))) {
        if (!Files.isDirectory(proc)) {
          return;
        }
        int uid = (Integer) Files.getAttribute(proc, "unix:uid");
        mine = uid == (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        owner = ProcessHandle.of(pid).flatMap(p -> p.info().user()).orElse("uid " + uid);
      } else {
        java.util.Optional<ProcessHandle> p = ProcessHandle.of(pid);
        if (p.isEmpty()) {
          return;
        }
        owner = p.get().info().user().orElse(null);
        mine = me.equals(owner);
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      owner = null;
      mine = false;
    }
    if (!mine) {
      throw new ApiException(403, "pid " + pid + (owner == null ? " has an owner this service cannot tell" : " belongs to user " + owner)
          + ", and this service, running as " + me + ", attaches only to its own user's JVMs; start it with"
          + " 'bottlenose serve --attach-any-user' to attach to other users' JVMs too");
    }
  }

  /**
   * The JVMs on this host a daemon could serve, as {@code bottlenose jvms} lists them ({@link LocalJvms}): those the
   * attach mechanism sees and those whose waiting agent answers, attach disabled or not; Bottlenose's own left out.
   */
  private Future<?> localJvms() {
    return daemons.list().compose(all -> vertx.executeBlocking(() -> {
      Set<Long> attached = all.stream().filter(d -> Daemons.hostName().equals(d.host()))
          .map(Announcement::pid).collect(Collectors.toSet());
      JsonArray list = new JsonArray();
      for (JvmInfo jvm : LocalJvms.list()) {
        list.add(new JsonObject().put("pid", jvm.pid()).put("mainClass", jvm.mainClass().isBlank() ? "(unknown)" : jvm.mainClass())
            .put("javaVersion", "?".equals(jvm.javaVersion()) ? null : jvm.javaVersion()).put("owner", jvm.owner())
            .put("waitingAgent", jvm.waitingAgent()).put("container", jvm.contained()).put("attached", attached.contains(jvm.pid())));
      }
      return new JsonObject().put("jvms", list);
    }, false));
  }

  private Future<?> resources(String daemonId, List<String> paths) {
    String path = paths.isEmpty() || paths.get(0).isBlank() ? "/" : paths.get(0);
    ResourcePath parsed = null;
    if (!path.equals("/")) {
      try {
        parsed = ResourcePath.parse(path);
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest("bad resource path '" + path + "': " + e.getMessage());
      }
    }
    DaemonRequests.Resources request = new DaemonRequests.Resources(parsed, 2);
    return daemons.find(daemonId).compose(d -> {
      if (d == null) {
        return Future.failedFuture(ApiException.notFound("unknown daemon '" + daemonId + "'"));
      }
      return vertx.eventBus().<JsonObject>request(Addresses.resources(daemonId), request.toJson());
    }).map(m -> children(path, DaemonReplies.Resources.from(m.body())));
  }

  /** The graphs whose stacks a flame graph can draw, and what each counts. */
  static final Map<String, String> STACK_GRAPHS = DaemonRequests.Stacks.GRAPHS;

  /**
   * A daemon's sampled stacks as a tree ({@code stacks} on the bus), for a flame graph: {@code graph} (default cpu)
   * and {@code max} (default {@link DaemonRequests.Stacks#DEFAULT_MAX}) as the contract checked them; only those
   * through code {@code through} when given ({@link Through}).
   */
  private Future<?> stacks(String daemonId, String graph, Number maxFrames, String through) {
    String g = graph == null ? DaemonRequests.CallGraph.DEFAULT_GRAPH : graph;
    int max = maxFrames == null ? DaemonRequests.Stacks.DEFAULT_MAX : maxFrames.intValue();
    return daemons.find(daemonId).compose(d -> {
      if (d == null) {
        return Future.failedFuture(ApiException.notFound("unknown daemon '" + daemonId + "'"));
      }
      return Through.code(vertx, daemonId, through);
    }).compose(code -> vertx.eventBus().<JsonObject>request(Addresses.stacks(daemonId),
        new DaemonRequests.Stacks(g, max).toJson()).map(m -> Through.keep(DaemonReplies.Stacks.from(m.body()).toJson()
            .put("daemonId", daemonId).put("counts", STACK_GRAPHS.get(g)), code)));
  }

  static JsonObject children(String path, DaemonReplies.Resources resources) {
    List<DaemonReplies.Resource> all = resources.resources();
    List<JsonObject> direct = new ArrayList<>();
    for (DaemonReplies.Resource r : all) {
      ResourcePath p = r.path();
      boolean child = path.equals("/") ? p.isRoot() : p.parent() != null && p.parent().toString().equals(path);
      if (child) {
        boolean hasChildren = all.stream().anyMatch(o -> {
          ResourcePath q = o.path();
          return q.parent() != null && q.parent().equals(p);
        });
        direct.add(new JsonObject().put("path", p.toString()).put("name", p.name()).put("kind", r.kind()).put("hasChildren", hasChildren));
      }
    }
    return new JsonObject().put("path", path).put("children", new JsonArray(direct));
  }
}
