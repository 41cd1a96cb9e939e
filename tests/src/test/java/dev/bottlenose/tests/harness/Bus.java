package dev.bottlenose.tests.harness;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.Cluster;
import dev.bottlenose.bus.ClusterSecret;
import dev.bottlenose.bus.ClusterSettings;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** This test JVM as a member of a real clustered event bus (an embedded Hazelcast member on loopback). */
public final class Bus implements AutoCloseable {
  private final Vertx vertx;
  private final String secret;

  private Bus(Vertx vertx, String secret) {
    this.vertx = vertx;
    this.secret = secret;
  }

  /** Joins (or forms) a loopback cluster of its own, named by a fresh secret. */
  public static Bus join() throws Exception {
    return join("e2e-" + Long.toHexString(System.nanoTime()));
  }

  /** Joins (or forms) the loopback cluster of {@code secret}, as another member. */
  public static Bus join(String secret) throws Exception {
    ClusterSettings settings = ClusterSettings.loopback(ClusterSecret.of(secret, "test"));
    return new Bus(Cluster.start(settings).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS), secret);
  }

  /** The secret daemons must be given to join this cluster. */
  public String secret() {
    return secret;
  }

  public Vertx vertx() {
    return vertx;
  }

  /** Sends a request and waits for its reply body; a failure reply becomes a {@link ReplyException}. */
  public JsonObject request(String address, JsonObject body) throws Exception {
    try {
      return vertx.eventBus().<JsonObject>request(address, body)
          .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).body();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  /** Waits until the daemon answers on the bus with its target attached and running. */
  public void awaitRunning(DaemonProcess daemon) {
    org.awaitility.Awaitility.await("daemon " + daemon.id() + " on the event bus")
        .atMost(java.time.Duration.ofSeconds(90))
        .pollInterval(java.time.Duration.ofMillis(500))
        .failFast("the daemon process exited", () -> !daemon.isAlive())
        .until(() -> {
          try {
            return "RUNNING".equals(request(Addresses.status(daemon.id()), new JsonObject()).getString("state"));
          } catch (ReplyException | TimeoutException e) {
            return false;
          }
        });
  }

  /** The probe's entry in the daemon's newest sample, or null when there is none yet. */
  public JsonObject latestProbeValue(String daemonId, long probeId) throws Exception {
    JsonArray samples = request(Addresses.valuesHistory(daemonId), new JsonObject().put("last", 1)).getJsonArray("samples");
    if (samples.isEmpty()) {
      return null;
    }
    for (Object p : samples.getJsonObject(samples.size() - 1).getJsonArray("probes")) {
      if (((JsonObject) p).getLong("probeId") == probeId) {
        return (JsonObject) p;
      }
    }
    return null;
  }

  @Override
  public void close() throws Exception {
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      // leaving the cluster is best effort; the JVM ends soon after
    }
  }
}
