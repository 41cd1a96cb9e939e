package dev.bottlenose.web.cli;

import dev.bottlenose.bus.Cluster;
import dev.bottlenose.bus.ClusterSettings;
import dev.bottlenose.web.cluster.Daemons;
import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.protocol.DaemonEvents.Announcement;
import dev.bottlenose.bus.protocol.DaemonReplies;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.cli.UsageException;
import dev.bottlenose.daemon.bus.EmbeddedDaemon;
import io.vertx.core.Future;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.VertxMetricsFactory;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * This command's membership of the cluster, the daemons it spawned and the daemons it serves itself
 * ({@link EmbeddedDaemon}); closing stops them all.
 */
final class Member implements AutoCloseable {
  /**
   * {@code -Dbottlenose.search.daemons=process}: a daemon process per target, for a search command and for the
   * service alike (by default both serve their targets themselves).
   */
  static final String DAEMONS_PROPERTY = "bottlenose.search.daemons";
  private static final long OTHERS_POLL_MILLIS = 500;
  private final Vertx vertx;
  private final Daemons daemons;
  private final Map<Long, EmbeddedDaemon> embedded;

  private Member(Vertx vertx, Daemons daemons, Map<Long, EmbeddedDaemon> embedded) {
    this.vertx = vertx;
    this.daemons = daemons;
    this.embedded = embedded;
  }

  /**
   * Joins the cluster and serves each of {@code pids} from this process ({@link EmbeddedDaemon}), attaching while it
   * joins; when a daemon serves one of them already (another search's, the service's), or
   * {@code -Dbottlenose.search.daemons=process} asks, every target gets a daemon of its own process instead
   * ({@link #join(PrintStream, List)}), and {@link #daemonsFor} holds the one serving it.
   */
  static Member serve(PrintStream err, List<Long> pids) throws Exception {
    if ("process".equals(System.getProperty(DAEMONS_PROPERTY))) {
      return join(err, pids);
    }
    Map<Long, EmbeddedDaemon> reserved = new LinkedHashMap<>();
    for (long pid : pids) {
      EmbeddedDaemon d = EmbeddedDaemon.reserve(pid);
      if (d == null) {
        reserved.values().forEach(EmbeddedDaemon::close);
        return join(err, pids);
      }
      reserved.put(pid, d);
    }
    err.println("bottlenose: joining the cluster on 127.0.0.1 and attaching...");
    Future<Vertx> joining = Cluster.start(ClusterSettings.loopback(), null);
    Vertx vertx = null;
    try {
      Path agentJar = Daemons.locateAgentJar();
      for (EmbeddedDaemon d : reserved.values()) {
        d.attach(agentJar, "search-" + ProcessHandle.current().pid(), err);
      }
      vertx = await(joining, 90, "joining the cluster");
      for (EmbeddedDaemon d : reserved.values()) {
        await(d.serve(vertx), 60, "serving daemon " + d.id());
      }
      return new Member(vertx, new Daemons(vertx, Daemons.locateDaemonJar()), reserved);
    } catch (Exception | Error e) {
      reserved.values().forEach(EmbeddedDaemon::close);
      if (vertx != null) {
        vertx.close();
      } else {
        joining.onSuccess(Vertx::close);
      }
      throw e;
    }
  }

  static Member join(PrintStream err) throws Exception {
    return join(err, List.of());
  }

  /**
   * Joins the cluster as the service does, the Vert.x's own metrics reported to {@code metrics} ({@code GET /metrics}):
   * a JVM it is asked to attach to is served from this process ({@link Daemons#servedHere}), unless
   * {@code -Dbottlenose.search.daemons=process} asks for a daemon process per target.
   */
  static Member joinAsService(PrintStream err, VertxMetricsFactory metrics) throws Exception {
    return join(err, List.of(), metrics, !"process".equals(System.getProperty(DAEMONS_PROPERTY)));
  }

  /**
   * Joins the cluster; a daemon is started for each of {@code pids} first, to start, attach and join while this
   * process joins ({@link Daemons#prestart}), and {@link #daemonsFor} then holds it (or the daemon that already
   * served that pid, which the started one leaves to).
   */
  static Member join(PrintStream err, List<Long> pids) throws Exception {
    return join(err, pids, null, false);
  }

  private static Member join(PrintStream err, List<Long> pids, VertxMetricsFactory metrics, boolean servedHere)
      throws Exception {
    List<Daemons.Spawned> started = new ArrayList<>();
    for (long pid : pids) {
      try {
        started.add(Daemons.prestart(Daemons.locateDaemonJar(), pid));
      } catch (java.io.IOException e) {
        // started once joined instead, which reports why it cannot be
      }
    }
    err.println("bottlenose: joining the cluster on 127.0.0.1...");
    Vertx vertx = await(Cluster.start(ClusterSettings.loopback(), metrics), 90, "joining the cluster");
    Daemons daemons = servedHere ? Daemons.servedHere(vertx, Daemons.locateAgentJar())
        : new Daemons(vertx, Daemons.locateDaemonJar());
    started.forEach(daemons::adopt);
    return new Member(vertx, daemons, Map.of());
  }

  Vertx vertx() {
    return vertx;
  }

  Daemons daemons() {
    return daemons;
  }

  /** A running daemon per pid (reused, or started and awaited); their ids, in order. */
  List<String> daemonsFor(List<Long> pids, PrintStream err) throws Exception {
    List<String> ids = new ArrayList<>();
    for (long pid : pids) {
      EmbeddedDaemon own = embedded.get(pid);
      if (own != null) {
        err.println("bottlenose: daemon " + own.id() + " serves pid " + pid + " (" + own.target() + ") in this process");
        ids.add(own.id());
        continue;
      }
      err.println("bottlenose: getting a daemon for pid " + pid + "...");
      Announcement d = await(daemons.forPid(pid), 120, "a daemon for pid " + pid);
      err.println("bottlenose: daemon " + d.daemonId() + " serves pid " + pid + " (" + d.mainClass()
          + ", Java " + d.javaVersion() + ")");
      ids.add(d.daemonId());
    }
    return ids;
  }

  /**
   * Adds a metric file to every daemon of {@code daemonIds} ({@code metrics.add}); a file with errors is a usage
   * error listing each as {@code FILE:line:column: message}.
   */
  void addMetrics(List<String> daemonIds, String fileName, String text, PrintStream err) throws Exception {
    for (String id : daemonIds) {
      try {
        DaemonReplies.MetricsAdded added = await(vertx.eventBus().<JsonObject>request(Addresses.metricsAdd(id),
            new DaemonRequests.MetricsAdd(fileName, text).toJson()).map(m -> DaemonReplies.MetricsAdded.from(m.body())),
            30, "adding " + fileName);
        List<String> names = added.added();
        err.println("bottlenose: " + fileName + " adds " + (names.isEmpty() ? "no metric" : String.join(", ", names))
            + " to daemon " + id);
      } catch (ReplyException e) {
        if (e.failureCode() == 400 && e.getMessage().startsWith("{")) {
          throw new UsageException(new JsonObject(e.getMessage()).getString("message"));
        }
        throw e;
      }
    }
  }

  /** Waits for {@code f}; its failure is thrown as is, a time-out names {@code what}. */
  static <T> T await(Future<T> f, long seconds, String what) throws Exception {
    try {
      return f.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    } catch (TimeoutException e) {
      throw new TimeoutException(what + " took longer than " + seconds + " s");
    }
  }

  /**
   * Waits while members other than this one (another search, a service) hold a daemon this process serves: they
   * would lose it when this process ends. Says so once; Ctrl-C ends the wait (and this process, whose daemons go
   * with it, their agents removing what they inserted).
   */
  void awaitOtherHolders(PrintStream err) throws InterruptedException {
    boolean told = false;
    for (EmbeddedDaemon d : embedded.values()) {
      while (!d.otherHolders().isEmpty()) {
        if (!told) {
          err.println("bottlenose: daemon " + d.id() + " serves others too (" + String.join(", ", d.otherHolders())
              + "); it stops with this command, so this command waits for them to let go (Ctrl-C stops it now)");
          told = true;
        }
        Thread.sleep(OTHERS_POLL_MILLIS);
      }
    }
  }

  @Override
  public void close() {
    embedded.values().forEach(EmbeddedDaemon::close);
    daemons.close();
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    } catch (Exception e) {
      System.err.println("bottlenose: leaving the cluster failed: " + e.getMessage());
    }
  }
}
