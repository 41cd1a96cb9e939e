package dev.bottlenose.web.cluster;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.ClusterSecret;
import dev.bottlenose.bus.DaemonIds;
import dev.bottlenose.bus.Membership;
import dev.bottlenose.bus.protocol.DaemonRequests;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
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
 * for that host and pid, then either holds the daemon that serves it or spawns one ({@code java -jar
 * bottlenose-daemon-all.jar daemon --pid N --id ID --held-by <this member>}, its own process). A daemon
 * spawned this way stops when its last holder lets go ({@link #close}) or leaves the cluster, {@code kill -9}
 * included, so its agent removes what it inserted.
 */
public final class Daemons implements AutoCloseable {
  static final String LIST = Addresses.DAEMONS_LIST;
  private static final Duration REGISTER_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(120);
  private static final long STOP_WAIT_SECONDS = 15;
  /** A spawned daemon found its target served by another daemon (which is then held instead). */
  private static final int ALREADY_SERVED = 423;
  private static final long POLL_MILLIS = 500;

  private final Vertx vertx;
  private final Path daemonJar;
  private final String clusterSecret;
  private final Map<String, Process> spawned = new ConcurrentHashMap<>();
  private final Set<String> held = ConcurrentHashMap.newKeySet();

  /** Daemons spawned with this process's environment, so with its cluster secret. */
  public Daemons(Vertx vertx, Path daemonJar) {
    this(vertx, daemonJar, null);
  }

  /** Daemons spawned into the cluster named by {@code clusterSecret} (null: as this process's environment says). */
  public Daemons(Vertx vertx, Path daemonJar, String clusterSecret) {
    this.vertx = vertx;
    this.daemonJar = daemonJar;
    this.clusterSecret = clusterSecret;
  }

  /** Every daemon registered in the cluster ({@code daemonId, pid, mainClass, javaVersion, host, state}); none when no daemon answers. */
  public Future<List<JsonObject>> list() {
    return vertx.eventBus().<JsonObject>request(LIST, new JsonObject())
        .map(m -> m.body().getJsonArray("daemons", new JsonArray()).stream().map(o -> (JsonObject) o).toList())
        .recover(e -> isNoDaemon(e) ? Future.succeededFuture(List.of()) : Future.failedFuture(e));
  }

  /** The registered daemon {@code daemonId}, or null. */
  public Future<JsonObject> find(String daemonId) {
    return list().map(all -> all.stream().filter(d -> daemonId.equals(d.getString("daemonId"))).findFirst().orElse(null));
  }

  /**
   * A running daemon for {@code pid} on this host: the registered one, or a new daemon process once it
   * answers with its target attached. Fails with the daemon's own last words when it gives up (preflight).
   */
  public Future<JsonObject> forPid(long pid) {
    String host = hostName();
    return vertx.sharedData().getLockWithTimeout(Addresses.daemonLock(host, pid), LOCK_TIMEOUT.toMillis())
        .recover(e -> Future.failedFuture(new DaemonException(503, "another command has been getting a daemon for pid "
            + pid + " for over " + LOCK_TIMEOUT.toSeconds() + " s")))
        .compose(lock -> findOrSpawn(pid, host, System.currentTimeMillis() + REGISTER_TIMEOUT.toMillis())
            .andThen(ar -> lock.release()));
  }

  /** Holds the running daemon for {@code pid}, or spawns one; a daemon that is just stopping is waited out. */
  private Future<JsonObject> findOrSpawn(long pid, String host, long deadline) {
    return list().compose(all -> {
      for (JsonObject d : all) {
        if (d.getLong("pid", -1L) == pid && host.equals(d.getString("host")) && "RUNNING".equals(d.getString("state"))) {
          return hold(d).recover(e -> retry(pid, host, deadline, e));
        }
      }
      return spawn(pid, host).recover(e -> e instanceof DaemonException d && d.status() == ALREADY_SERVED
          ? retry(pid, host, deadline, e) : Future.failedFuture(e));
    });
  }

  private Future<JsonObject> retry(long pid, String host, long deadline, Throwable cause) {
    if (System.currentTimeMillis() > deadline) {
      return Future.failedFuture(cause);
    }
    Promise<Void> later = Promise.promise();
    vertx.setTimer(POLL_MILLIS, t -> later.complete());
    return later.future().compose(v -> findOrSpawn(pid, host, deadline));
  }

  /** Holds a held daemon (one started for another command or service); a daemon nobody holds is used as it is. */
  private Future<JsonObject> hold(JsonObject daemon) {
    if (!daemon.getBoolean("held", false)) {
      return Future.succeededFuture(daemon);
    }
    String id = daemon.getString("daemonId");
    return vertx.eventBus().<JsonObject>request(Addresses.hold(id), new DaemonRequests.Hold(true).toJson())
        .map(reply -> {
          held.add(id);
          return daemon;
        });
  }

  private Future<JsonObject> spawn(long pid, String host) {
    String id = DaemonIds.of(host, pid);
    Process running = spawned.get(id);
    if (running != null && running.isAlive()) {
      return awaitRunning(id, running, null);
    }
    if (ProcessHandle.of(pid).isEmpty()) {
      return Future.failedFuture(new DaemonException(400, "no process with pid " + pid));
    }
    if (!Files.isRegularFile(daemonJar)) {
      return Future.failedFuture(new DaemonException(500, "daemon jar not found: " + daemonJar.toAbsolutePath()
          + " (build it with mvn -pl daemon -am package, or set -Dbottlenose.daemon.jar)"));
    }
    try {
      Path log = Files.createTempFile("bottlenose-daemon-" + pid + "-", ".log");
      log.toFile().deleteOnExit();
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      List<String> command = new ArrayList<>(List.of(java, "-jar", daemonJar.toString(), "daemon", "--pid", Long.toString(pid),
          "--id", id));
      if (vertx.isClustered()) {
        command.addAll(List.of("--held-by", Membership.localNode(vertx)));
      }
      ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      pb.environment().remove("BOTTLENOSE_WEB_TOKEN");
      if (clusterSecret != null) {
        pb.environment().put(ClusterSecret.ENV, clusterSecret);
      }
      Process p = pb.start();
      spawned.put(id, p);
      return awaitRunning(id, p, log);
    } catch (IOException e) {
      return Future.failedFuture(new DaemonException(500, "cannot start a daemon for pid " + pid + ": " + e.getMessage()));
    }
  }

  private Future<JsonObject> awaitRunning(String id, Process process, Path log) {
    Promise<JsonObject> promise = Promise.promise();
    long deadline = System.currentTimeMillis() + REGISTER_TIMEOUT.toMillis();
    poll(id, process, log, deadline, promise);
    return promise.future();
  }

  private void poll(String id, Process process, Path log, long deadline, Promise<JsonObject> promise) {
    vertx.eventBus().<JsonObject>request(Addresses.status(id), new JsonObject()).onComplete(ar -> {
      if (ar.succeeded() && "RUNNING".equals(ar.result().body().getString("state"))) {
        held.add(id);
        find(id).onComplete(d -> promise.complete(d.succeeded() && d.result() != null ? d.result()
            : registryEntry(id, ar.result().body())));
      } else if (!process.isAlive()) {
        spawned.remove(id, process);
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

  private static JsonObject registryEntry(String id, JsonObject status) {
    return new JsonObject().put("daemonId", id).put("pid", status.getLong("pid")).put("mainClass", status.getString("mainClass"))
        .put("javaVersion", status.getString("javaVersion")).put("host", hostName()).put("state", status.getString("state"));
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
   * A daemon another command or service still holds keeps running for it. Not on an event loop: it blocks.
   */
  @Override
  public void close() {
    Map<String, Boolean> stillHeld = new HashMap<>();
    for (String id : List.copyOf(held)) {
      try {
        JsonObject reply = vertx.eventBus().<JsonObject>request(Addresses.hold(id), new DaemonRequests.Hold(false).toJson())
            .toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS).body();
        stillHeld.put(id, !reply.getJsonArray("holders", new JsonArray()).isEmpty());
      } catch (Exception e) {
        stillHeld.put(id, false);
      }
    }
    held.clear();
    for (Map.Entry<String, Process> e : spawned.entrySet()) {
      if (stillHeld.getOrDefault(e.getKey(), false)) {
        continue;
      }
      Process p = e.getValue();
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
