package dev.bottlenose.daemon.bus;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Starts a clustered Vert.x on an embedded Hazelcast member configured from {@link ClusterSettings}. */
public final class Cluster {
  private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");
  private static final Logger CP_SUBSYSTEM_LOG = Logger.getLogger("com.hazelcast.cp.CPSubsystem");

  private Cluster() {}

  public static CompletableFuture<Vertx> start(ClusterSettings settings) {
    HAZELCAST_LOG.setLevel(Level.WARNING);
    CP_SUBSYSTEM_LOG.setLevel(Level.SEVERE);
    VertxOptions options = new VertxOptions();
    options.getEventBusOptions().setHost(settings.host()).setPort(0);
    return Vertx.builder().with(options).withClusterManager(new HazelcastClusterManager(hazelcastConfig(settings)))
        .buildClustered().toCompletionStage().toCompletableFuture();
  }

  static Config hazelcastConfig(ClusterSettings settings) {
    Config config = ConfigUtil.loadConfig();
    config.setClusterName(settings.clusterName());
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.logging.type", "jdk");
    config.setProperty("hazelcast.socket.bind.any", "false");
    config.setProperty("hazelcast.tcp.join.port.try.count", "20");
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
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
