package dev.bottlenose.web.cluster;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.ClusterSecret;
import dev.bottlenose.bus.DaemonIds;
import dev.bottlenose.bus.Membership;
import dev.bottlenose.bus.protocol.BadField;
import dev.bottlenose.bus.protocol.DaemonEvents.Announcement;
import dev.bottlenose.bus.protocol.DaemonReplies;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.cli.ClassArchive;
import dev.bottlenose.daemon.attach.AgentJar;
import dev.bottlenose.daemon.bus.EmbeddedDaemon;
import dev.bottlenose.daemon.session.SessionException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The daemons of the cluster: the registry any daemon answers for, and the daemons this process uses.
 *
 * <p>One daemon per target across concurrent commands: getting a daemon for a pid takes a cluster-wide lock
 * for that host and pid, then either holds the daemon that serves it or starts one: by default ({@link #Daemons})
 * a daemon process ({@code java -jar bottlenose-daemon-all.jar daemon --pid N --id ID --held-by <this member>});
 * with {@link #servedHere} one served from this process ({@link EmbeddedDaemon}), as the service does: no second
 * JVM to start, compile and keep, no second member to join and talk to. A daemon process stops when its last
 * holder lets go ({@link #close}) or leaves the cluster, {@code kill -9} included, so its agent removes what it
 * inserted; one served here stops with this process, however it ends, or {@value #LINGER_SECONDS} s after its
 * target has. A command may start its daemon process before it joins ({@link #prestart}, {@code --held-by -}) and
 * {@link #adopt} it once joined.
 */
public final class Daemons implements AutoCloseable {
  static final String LIST = Addresses.DAEMONS_LIST;
  private static final Duration REGISTER_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(120);
  private static final long STOP_WAIT_SECONDS = 15;
  /** A spawned daemon found its target served by another daemon (which is then held instead). */
  private static final int ALREADY_SERVED = 423;
  private static final long POLL_MILLIS = 100;
  /** How long a daemon served here answers for a target that has exited, as a daemon process does by default. */
  static final long LINGER_SECONDS = 10;
  private static final String AGENT_JAR = "bottlenose-agent.jar";
  /**
   * The daemon's JVM compiles with C1 only, as the launcher runs the service's: on a 40 s search of a one-thread
   * program (measured by hand from {@code /proc}, two searches each way) the daemon used 15–16 s of CPU with both
   * compilers, two thirds of it in C2, and 7 s with C1 only;
   * on a two-core target those seconds are the target's. The daemon's work (reading the JFR repository,
   * answering the bus) is short and steady, so C2's faster code does not repay compiling it. C1 compiles a method
   * after a tenth of its default invocations and loop iterations: a search runs much of its code (the rules, the
   * listings, each node's first readings) a few times a second, too seldom to be compiled by default, and in the
   * steady part of a 1% search of a server about half of the workers' CPU was the bytecode interpreter and a
   * quarter of the process's was C1; with the lower thresholds the search command used 4.0 s of CPU instead of 4.4 s
   * (medians of six interleaved searches each of the Jetty server, 3.96–4.63 s against 4.20–4.88 s). The launcher
   * ({@code dist/src/main/sh/bottlenose}) runs both jars with the same options.
   */
  public static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:Tier3InvocationThreshold=20",
      "-XX:Tier3MinInvocationThreshold=10", "-XX:Tier3CompileThreshold=200", "-XX:Tier3BackEdgeThreshold=6000");

  private final Vertx vertx;
  private final Path daemonJar;
  private final String clusterSecret;
  private final Map<String, Spawned> spawned = new ConcurrentHashMap<>();
  private final Set<String> held = ConcurrentHashMap.newKeySet();
  /** The agent jar daemons served here attach with; null: new daemons are processes of their own. */
  private final Path agentJar;
  private final Map<String, EmbeddedDaemon> ownDaemons = new ConcurrentHashMap<>();

  /** Daemons spawned with this process's environment, so with its cluster secret. */
  public Daemons(Vertx vertx, Path daemonJar) {
    this(vertx, daemonJar, null);
  }

  /** Daemons spawned into the cluster named by {@code clusterSecret} (null: as this process's environment says). */
  public Daemons(Vertx vertx, Path daemonJar, String clusterSecret) {
    this(vertx, daemonJar, clusterSecret, null);
  }

  private Daemons(Vertx vertx, Path daemonJar, String clusterSecret, Path agentJar) {
    this.vertx = vertx;
    this.daemonJar = daemonJar.toAbsolutePath().normalize();
    this.clusterSecret = clusterSecret;
    this.agentJar = agentJar == null ? null : agentJar.toAbsolutePath().normalize();
  }

  /**
   * Daemons served from this process ({@link EmbeddedDaemon}), attaching with the agent jar {@code agentJar}; a pid
   * another daemon serves already is held as by {@link #Daemons}.
   */
  public static Daemons servedHere(Vertx vertx, Path agentJar) {
    return new Daemons(vertx, locateDaemonJar(), null, agentJar);
  }

  /** Every daemon registered in the cluster; none when no daemon answers. */
  public Future<List<Announcement>> list() {
    return vertx.eventBus().<JsonObject>request(LIST, new JsonObject())
        .map(m -> DaemonReplies.Daemons.from(m.body()).daemons())
        .recover(e -> isNoDaemon(e) ? Future.succeededFuture(List.of()) : Future.failedFuture(e));
  }

  /** The registered daemon {@code daemonId}, or null. */
  public Future<Announcement> find(String daemonId) {
    return list().map(all -> all.stream().filter(d -> daemonId.equals(d.daemonId())).findFirst().orElse(null));
  }

  /**
   * A running daemon for {@code pid} on this host: the registered one, or a new daemon process once it
   * answers with its target attached. Fails with the daemon's own last words when it gives up (preflight).
   */
  public Future<Announcement> forPid(long pid) {
    String host = hostName();
    return vertx.sharedData().getLockWithTimeout(Addresses.daemonLock(host, pid), LOCK_TIMEOUT.toMillis())
        .recover(e -> Future.failedFuture(new DaemonException(503, "another command has been getting a daemon for pid "
            + pid + " for over " + LOCK_TIMEOUT.toSeconds() + " s")))
        .compose(lock -> findOrSpawn(pid, host, System.currentTimeMillis() + REGISTER_TIMEOUT.toMillis())
            .andThen(ar -> lock.release()));
  }

  /** Holds the running daemon for {@code pid}, or spawns one; a daemon that is just stopping is waited out. */
  private Future<Announcement> findOrSpawn(long pid, String host, long deadline) {
    return list().compose(all -> {
      for (Announcement d : all) {
        if (d.pid() == pid && host.equals(d.host()) && d.isRunning()) {
          return hold(d).recover(e -> retry(pid, host, deadline, e));
        }
      }
      return (agentJar != null ? serveHere(pid, host) : spawn(pid, host)).recover(e ->
          e instanceof DaemonException d && d.status() == ALREADY_SERVED ? retry(pid, host, deadline, e)
              : Future.failedFuture(e));
    });
  }

  private Future<Announcement> retry(long pid, String host, long deadline, Throwable cause) {
    if (System.currentTimeMillis() > deadline) {
      return Future.failedFuture(cause);
    }
    Promise<Void> later = Promise.promise();
    vertx.setTimer(POLL_MILLIS, t -> later.complete());
    return later.future().compose(v -> findOrSpawn(pid, host, deadline));
  }

  /** Holds a held daemon (one started for another command or service); a daemon nobody holds is used as it is. */
  private Future<Announcement> hold(Announcement daemon) {
    if (!daemon.held()) {
      return Future.succeededFuture(daemon);
    }
    String id = daemon.daemonId();
    return vertx.eventBus().<JsonObject>request(Addresses.hold(id), new DaemonRequests.Hold(true).toJson())
        .map(reply -> {
          held.add(id);
          return daemon;
        });
  }

  /**
   * A daemon process this process started, and the file its output goes to; {@code prestarted}: started before
   * this process joined ({@link #prestart}), so its end is told to the first {@link #forPid} of its pid.
   */
  public record Spawned(long pid, Process process, Path log, boolean prestarted) {}

  /**
   * Starts a daemon for {@code pid} before this process has joined the cluster ({@code --held-by -}): its JVM
   * starts and attaches while this process joins, then waits for {@link #adopt} to tell it the member that holds it,
   * and joins. When this process ends first, the daemon stops. When a daemon already serves {@code pid}, this one
   * gives up (its target is already served) and {@link #forPid} holds the served one instead.
   */
  public static Spawned prestart(Path daemonJar, long pid) throws IOException {
    return prestart(daemonJar, pid, null);
  }

  /** As {@link #prestart(Path, long)}, into the cluster named by {@code clusterSecret} (null: as the environment says). */
  public static Spawned prestart(Path daemonJar, long pid, String clusterSecret) throws IOException {
    return launch(daemonJar.toAbsolutePath().normalize(), pid, DaemonIds.of(hostName(), pid), clusterSecret,
        List.of("--held-by", "-"), true);
  }

  /**
   * Tells a daemon started by {@link #prestart} that this member holds it, so it joins; {@link #forPid} then awaits
   * it. A daemon that has already given up is left to {@link #forPid}, which finds the one serving its pid.
   */
  public void adopt(Spawned daemon) {
    spawned.put(DaemonIds.of(hostName(), daemon.pid()), daemon);
    try (var in = daemon.process().getOutputStream()) {
      in.write((Membership.localNode(vertx) + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException gaveUp) {
      // it ended (its target already served, or it could not attach): forPid tells which from its last words
    }
  }

  private Future<Announcement> spawn(long pid, String host) {
    String id = DaemonIds.of(host, pid);
    Spawned running = spawned.get(id);
    if (running != null && (running.process().isAlive() || running.prestarted())) {
      return awaitRunning(id, running);
    }
    if (ProcessHandle.of(pid).isEmpty()) {
      return Future.failedFuture(new DaemonException(400, "no process with pid " + pid));
    }
    try {
      Spawned p = launch(daemonJar, pid, id, clusterSecret, vertx.isClustered()
          ? List.of("--held-by", Membership.localNode(vertx)) : List.of(), false);
      spawned.put(id, p);
      return awaitRunning(id, p);
    } catch (IOException e) {
      return Future.failedFuture(e instanceof java.io.FileNotFoundException ? new DaemonException(500, e.getMessage())
          : new DaemonException(500, "cannot start a daemon for pid " + pid + ": " + e.getMessage()));
    }
  }

  /**
   * Attaches to {@code pid} and serves it from this process; a pid whose lock another process holds (its daemon about
   * to register) is {@link #ALREADY_SERVED}. A daemon served here for an earlier process of the same pid goes first.
   */
  private Future<Announcement> serveHere(long pid, String host) {
    String id = DaemonIds.of(host, pid);
    EmbeddedDaemon earlier = ownDaemons.remove(id);
    Future<Void> cleared = earlier == null ? Future.succeededFuture() : vertx.executeBlocking(() -> {
      held.remove(id);
      earlier.close();
      return null;
    }, false);
    return cleared.compose(v -> {
      if (ProcessHandle.of(pid).isEmpty()) {
        return Future.failedFuture(new DaemonException(400, "no process with pid " + pid));
      }
      EmbeddedDaemon daemon = EmbeddedDaemon.reserve(pid);
      if (daemon == null) {
        return Future.failedFuture(new DaemonException(ALREADY_SERVED, "pid " + pid + " is served by another daemon"));
      }
      return vertx.executeBlocking(() -> {
        daemon.attach(agentJar, "serve-" + ProcessHandle.current().pid(), System.err);
        return daemon;
      }, false).compose(d -> d.serve(vertx)).compose(served -> {
        ownDaemons.put(id, daemon);
        held.add(id);
        daemon.onEnd(reason -> vertx.setTimer(TimeUnit.SECONDS.toMillis(LINGER_SECONDS), t -> {
          if (ownDaemons.remove(id, daemon)) {
            held.remove(id);
            vertx.executeBlocking(() -> {
              daemon.close();
              return null;
            }, false);
          }
        }));
        return vertx.eventBus().<JsonObject>request(Addresses.status(id), new JsonObject())
            .map(m -> registryEntry(id, DaemonReplies.Status.from(m.body())));
      }).recover(e -> {
        ownDaemons.remove(id, daemon);
        held.remove(id);
        vertx.executeBlocking(() -> {
          daemon.close();
          return null;
        }, false);
        return Future.failedFuture(e instanceof SessionException s
            ? new DaemonException(s.failure().code() == 400 ? 400 : 409, s.getMessage()) : e);
      });
    });
  }

  private static Spawned launch(Path daemonJar, long pid, String id, String clusterSecret, List<String> holder,
      boolean prestarted) throws IOException {
    if (!Files.isRegularFile(daemonJar)) {
      throw new java.io.FileNotFoundException("daemon jar not found: " + daemonJar.toAbsolutePath()
          + " (build it with mvn -pl daemon -am package, or set -Dbottlenose.daemon.jar)");
    }
    Path log = Files.createTempFile("bottlenose-daemon-" + pid + "-", ".log");
    log.toFile().deleteOnExit();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java));
    command.addAll(JVM_OPTIONS);
    command.addAll(ClassArchive.jvmOptions(daemonJar));
    command.addAll(List.of("-jar", daemonJar.toString(), "daemon", "--pid", Long.toString(pid), "--id", id));
    command.addAll(holder);
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().remove("BOTTLENOSE_WEB_TOKEN");
    if (clusterSecret != null) {
      pb.environment().put(ClusterSecret.ENV, clusterSecret);
    }
    return new Spawned(pid, pb.start(), log, prestarted);
  }

  private Future<Announcement> awaitRunning(String id, Spawned daemon) {
    Promise<Announcement> promise = Promise.promise();
    long deadline = System.currentTimeMillis() + REGISTER_TIMEOUT.toMillis();
    poll(id, daemon.process(), daemon.log(), deadline, promise);
    return promise.future();
  }

  private void poll(String id, Process process, Path log, long deadline, Promise<Announcement> promise) {
    vertx.eventBus().<JsonObject>request(Addresses.status(id), new JsonObject()).onComplete(ar -> {
      DaemonReplies.Status status = ar.succeeded() ? status(ar.result().body()) : null;
      if (status != null && status.isRunning()) {
        Announcement entry = registryEntry(id, status);
        if (vertx.isClustered() && !status.holders().contains(Membership.localNode(vertx))) {
          // the daemon serving this pid is not the one this process started (which gave up, finding the pid
          // served): held like any other, so it does not stop under this process when its own holder lets go
          spawned.remove(id);
          hold(entry).onComplete(promise);
          return;
        }
        held.add(id);
        find(id).onComplete(d -> promise.complete(d.succeeded() && d.result() != null ? d.result() : entry));
      } else if (!process.isAlive()) {
        spawned.computeIfPresent(id, (k, v) -> v.process() == process ? null : v);
        String words = lastWords(log);
        promise.fail(new DaemonException(process.exitValue() == 2 ? 400 : words.contains("already served by another daemon")
            ? ALREADY_SERVED : 409, "the daemon for " + id + " gave up: " + words));
      } else if (System.currentTimeMillis() > deadline) {
        process.destroy();
        promise.fail(new DaemonException(503, "daemon " + id + " did not answer within " + REGISTER_TIMEOUT.toSeconds() + " s"));
      } else {
        vertx.setTimer(POLL_MILLIS, t -> poll(id, process, log, deadline, promise));
      }
    });
  }

  /** The registry's entry for a daemon that answered its status before its entry could be read. */
  private static Announcement registryEntry(String id, DaemonReplies.Status status) {
    return new Announcement(id, status.pid(), status.mainClass(), status.javaVersion(), hostName(), status.state(),
        !status.holders().isEmpty(), status.node(), null, null);
  }

  /** A status reply, or null when it has a bad field (then the daemon is asked again, as when it does not answer yet). */
  private static DaemonReplies.Status status(JsonObject body) {
    try {
      return DaemonReplies.Status.from(body);
    } catch (BadField e) {
      return null;
    }
  }

  private static String lastWords(Path log) {
    if (log == null) {
      return "(no output)";
    }
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
      List<String> last = lines.subList(Math.max(0, lines.size() - 4), lines.size());
      return last.isEmpty() ? "(no output)" : String.join(" / ", last).replaceFirst("^bottlenose daemon: ", "");
    } catch (IOException e) {
      return "(its output " + log + " is unreadable: " + e.getMessage() + ")";
    }
  }

  /**
   * Lets go of every daemon this process holds. A daemon it spawned that nobody else holds then stops (its
   * agent removes its probes); this waits for that, up to {@value #STOP_WAIT_SECONDS} s, then sends SIGTERM.
   * A daemon another command or service still holds keeps running for it; one served here stops now (its agent
   * removes its probes), whoever holds it. Not on an event loop: it blocks.
   */
  @Override
  public void close() {
    Map<String, Boolean> stillHeld = new HashMap<>();
    for (String id : List.copyOf(held)) {
      try {
        JsonObject reply = vertx.eventBus().<JsonObject>request(Addresses.hold(id), new DaemonRequests.Hold(false).toJson())
            .toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS).body();
        stillHeld.put(id, !DaemonReplies.Hold.from(reply).holders().isEmpty());
      } catch (Exception e) {
        stillHeld.put(id, false);
      }
    }
    held.clear();
    ownDaemons.values().forEach(EmbeddedDaemon::close);
    ownDaemons.clear();
    for (Map.Entry<String, Spawned> e : spawned.entrySet()) {
      if (stillHeld.getOrDefault(e.getKey(), false)) {
        continue;
      }
      Process p = e.getValue().process();
      try {
        if (!p.waitFor(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
          p.destroy();
          if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
          }
        }
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        p.destroy();
      }
    }
    spawned.clear();
  }

  private static boolean isNoDaemon(Throwable e) {
    return e instanceof ReplyException r && (r.failureType() == ReplyFailure.NO_HANDLERS || r.failureType() == ReplyFailure.TIMEOUT);
  }

  /** The short host name, as the daemons report it. */
  public static String hostName() {
    return DaemonIds.localHost();
  }

  /**
   * Where the agent jar is: {@code -Dbottlenose.agent.jar}, else beside the daemon jar (both are in the installation's
   * {@code lib/}, and in daemon/target in the source tree, where the service jar's own directory has none).
   */
  public static Path locateAgentJar() {
    return System.getProperty(AgentJar.PROPERTY) != null ? AgentJar.expected()
        : locateDaemonJar().resolveSibling(AGENT_JAR);
  }

  /** Where the daemon jar is: {@code -Dbottlenose.daemon.jar}, else beside this jar, else the build's daemon/target. */
  public static Path locateDaemonJar() {
    String property = System.getProperty("bottlenose.daemon.jar");
    if (property != null && !property.isBlank()) {
      return Path.of(property);
    }
    String name = "bottlenose-daemon-all.jar";
    try {
      Path own = Path.of(Daemons.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path dir = Files.isDirectory(own) ? own : own.getParent();
      Path beside = dir.resolve(name);
      if (Files.isRegularFile(beside)) {
        return beside;
      }
      return dir.resolve("../../daemon/target").resolve(name).normalize();
    } catch (java.net.URISyntaxException | RuntimeException e) {
      return Path.of("daemon", "target", name);
    }
  }

  /** A daemon could not be had: the HTTP-like status ({@code 400} bad pid, {@code 409} refused, {@code 503} no answer) and why. */
  public static final class DaemonException extends RuntimeException {
    private final int status;

    DaemonException(int status, String message) {
      super(message);
      this.status = status;
    }

    public int status() {
      return status;
    }
  }
}
