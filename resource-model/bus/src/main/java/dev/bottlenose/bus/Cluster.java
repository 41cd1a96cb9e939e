package dev.bottlenose.bus;

import com.hazelcast.config.ClassFilter;
import com.hazelcast.config.Config;
import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.JksOptions;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * This process as a member of the Bottlenose cluster: Vert.x clustered on an embedded Hazelcast member,
 * admitted by the {@link ClusterSecret}. Three locks, all from the one secret:
 * <ul>
 *   <li>Hazelcast joins only members with the same cluster name, derived from the secret;</li>
 *   <li>the event bus speaks TLS 1.3 with client certificates required, and every member presents and trusts
 *       only the certificate derived from the secret ({@link EventBusIdentity}), so a process without the
 *       secret can neither send a frame to a member nor receive one;</li>
 *   <li>Java deserialisation of what other members put into shared maps is limited to a few value classes
 *       (Hazelcast's serialisation filter): an object of any other class is refused, not built.</li>
 * </ul>
 * Every message a member sends names it ({@link Membership#NODE_HEADER}).
 */
public final class Cluster {
  /**
   * The packages whose classes a member deserialises with Java serialisation: Hazelcast's own (its error
   * responses are serialised exceptions), and the JDK's basic ones those refer to. Vert.x's values travel in
   * Hazelcast's own format; anything else (javax.*, java.rmi, java.security, libraries) is refused.
   */
  static final Set<String> JAVA_SERIALIZATION_ALLOWED = Set.of("com.hazelcast.", "java.lang.", "java.util.", "java.io.",
      "java.net.", "java.time.", "[");

  /** Held here: the JDK keeps loggers weakly, and a level set on one that was collected is lost. */
  private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");
  private static final Logger CP_SUBSYSTEM_LOG = Logger.getLogger("com.hazelcast.cp.CPSubsystem");

  private Cluster() {}

  /** Joins (or forms) the cluster {@code settings} describe; the future has the clustered Vert.x. */
  public static Future<Vertx> start(ClusterSettings settings) {
    return start(settings, null);
  }

  /**
   * As {@link #start(ClusterSettings)}, with the Vert.x's own metrics (HTTP servers, the event bus, …) reported to
   * {@code metrics} (null: none).
   */
  public static Future<Vertx> start(ClusterSettings settings, VertxMetricsFactory metrics) {
    if (HAZELCAST_LOG.getLevel() == null) {
      // Not set by a command line (cli.Logging): Hazelcast's INFO lines are its start-up banner and joins.
      HAZELCAST_LOG.setLevel(Level.WARNING);
      CP_SUBSYSTEM_LOG.setLevel(Level.SEVERE);
    }
    VertxOptions options = new VertxOptions().setEventBusOptions(eventBusOptions(settings));
    VertxBuilder builder = Vertx.builder().with(options)
        .withClusterManager(new HazelcastClusterManager(hazelcastConfig(settings)));
    if (metrics != null) {
      builder.withMetrics(metrics);
    }
    return builder.buildClustered().andThen(joined -> {
      if (joined.succeeded()) {
        Membership.stampOutbound(joined.result());
      }
    });
  }

  /**
   * Starts a member alone (a free loopback port, a secret of its own, so it joins nobody) and leaves again: what
   * a jar's class-archive training does, so that the classes joining loads are in the archive
   * ({@code dev.bottlenose.cli.ClassArchive}).
   */
  public static void rehearse() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName(ClusterSettings.LOOPBACK))) {
      port = free.getLocalPort();
    }
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    ClusterSettings alone = new ClusterSettings(ClusterSettings.LOOPBACK, port,
        List.of(ClusterSettings.LOOPBACK + ":" + port), ClusterSecret.of(HexFormat.of().formatHex(secret),
        "the class-archive training"));
    Vertx vertx = start(alone).toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    vertx.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  static EventBusOptions eventBusOptions(ClusterSettings settings) {
    EventBusIdentity identity = EventBusIdentity.derive(settings.secret());
    EventBusOptions bus = new EventBusOptions().setHost(settings.host()).setPort(0);
    bus.setSsl(true).setClientAuth(ClientAuth.REQUIRED).setEnabledSecureTransportProtocols(Set.of("TLSv1.3"))
        .setKeyCertOptions(new JksOptions().setValue(Buffer.buffer(identity.keyStore())).setPassword(identity.password()))
        .setTrustOptions(new JksOptions().setValue(Buffer.buffer(identity.trustStore())).setPassword(identity.password()));
    return bus;
  }

  static Config hazelcastConfig(ClusterSettings settings) {
    Config config = ConfigUtil.loadConfig();
    config.setClusterName(settings.clusterName());
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.logging.type", "jdk");
    config.setProperty("hazelcast.socket.bind.any", "false");
    config.setProperty("hazelcast.tcp.join.port.try.count", "20");
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    // A member that joins (a daemon joining its command's member) is let in at once; by default the master
    // waits 5 s to admit several joiners together, which only a large cluster starting at once gains from.
    config.setProperty("hazelcast.wait.seconds.before.join", "0");
    // The cluster's data is a few entries per member (the daemon registry, Vert.x's subscriptions, locks); with
    // Hazelcast's default of 271 partitions a daemon joining its command's member spent about 1.2 s of its join
    // taking its share of them over (3.0 s to 1.7 s, measured by hand on a 2-vCPU VM). Every member of a cluster
    // must use the same count, as every member here does.
    config.setProperty("hazelcast.partition.count", "11");
    // Nobody reads a member's metrics (no Management Center) or its health log: collecting them every few seconds
    // is CPU that a search's command and daemon take from the cores of the program they watch.
    config.getMetricsConfig().setEnabled(false);
    config.setProperty("hazelcast.health.monitoring.level", "OFF");
    ClassFilter allowed = new ClassFilter();
    JAVA_SERIALIZATION_ALLOWED.forEach(allowed::addPrefixes);
    config.getSerializationConfig().setJavaSerializationFilterConfig(
        new JavaSerializationFilterConfig().setDefaultsDisabled(true).setWhitelist(allowed));
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(settings.port()).setPortAutoIncrement(true).setPortCount(100);
    network.getInterfaces().setEnabled(true).clear().addInterface(settings.host());
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(settings.members());
    return config;
  }
}
