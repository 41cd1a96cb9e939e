package dev.bottlenose.web.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * This process as a member of the Bottlenose cluster: Vert.x clustered on an embedded Hazelcast member
 * on loopback, configured as the daemons configure theirs (daemon/README.md, "Cluster"), so the service
 * and the daemons it spawns find each other. The cluster name follows {@value #SECRET_ENV}.
 */
public final class ClusterMember {
  public static final String SECRET_ENV = "BOTTLENOSE_CLUSTER_SECRET";
  static final String LOOPBACK = "127.0.0.1";
  static final int FIRST_PORT = 5701;

  private ClusterMember() {}

  /** Joins (or forms) the loopback cluster named by {@code secret} (null: the default cluster). */
  public static Future<Vertx> join(String secret) {
    Logger.getLogger("com.hazelcast").setLevel(Level.WARNING);
    Logger.getLogger("com.hazelcast.cp.CPSubsystem").setLevel(Level.SEVERE);
    VertxOptions options = new VertxOptions();
    options.getEventBusOptions().setHost(LOOPBACK).setPort(0);
    return Vertx.builder().with(options).withClusterManager(new HazelcastClusterManager(config(secret))).buildClustered();
  }

  /** Joins the cluster named by the environment's {@value #SECRET_ENV}. */
  public static Future<Vertx> joinFromEnvironment() {
    String secret = System.getenv(SECRET_ENV);
    return join(secret == null || secret.isBlank() ? null : secret);
  }

  static Config config(String secret) {
    Config config = ConfigUtil.loadConfig();
    config.setClusterName(clusterName(secret));
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.logging.type", "jdk");
    config.setProperty("hazelcast.socket.bind.any", "false");
    config.setProperty("hazelcast.tcp.join.port.try.count", "20");
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(FIRST_PORT).setPortAutoIncrement(true).setPortCount(100);
    network.getInterfaces().setEnabled(true).clear().addInterface(LOOPBACK);
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(List.of(LOOPBACK));
    return config;
  }

  /** {@code bottlenose}, or {@code bottlenose-<first 12 bytes of SHA-256(secret), hex>}, as the daemons name it. */
  static String clusterName(String secret) {
    if (secret == null) {
      return "bottlenose";
    }
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
      return "bottlenose-" + HexFormat.of().formatHex(hash, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }
}
