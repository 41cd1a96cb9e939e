package dev.bottlenose.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.config.Config;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterSettingsTest {
  private static final ClusterSecret ALPHA = ClusterSecret.of("alpha", "test");

  @Test
  void theClusterNameDependsOnTheSecretButDoesNotContainIt() {
    String a = new ClusterSettings("127.0.0.1", 5701, List.of("127.0.0.1"), ALPHA).clusterName();
    String b = new ClusterSettings("127.0.0.1", 5701, List.of("127.0.0.1"), ClusterSecret.of("beta", "test")).clusterName();
    assertThat(a).isNotEqualTo(b).doesNotContain("alpha").matches("bottlenose-[0-9a-f]{24}");
    assertThat(a).isEqualTo(new ClusterSettings("127.0.0.1", 5702, List.of("x"), ALPHA).clusterName());
  }

  @Test
  void refusesBadPortsEmptyMembersMissingAndEmptySecrets() {
    assertThatThrownBy(() -> new ClusterSettings("127.0.0.1", 0, List.of("127.0.0.1"), ALPHA))
        .hasMessage("cluster port 0 is not in 1..65535");
    assertThatThrownBy(() -> new ClusterSettings("127.0.0.1", 5701, List.of(), ALPHA))
        .hasMessage("no cluster members to join");
    assertThatThrownBy(() -> new ClusterSettings("127.0.0.1", 5701, List.of("127.0.0.1"), null))
        .hasMessage("a cluster needs a secret");
    assertThatThrownBy(() -> new ClusterSettings("8.8.8.8", 5701, List.of("127.0.0.1"), ALPHA))
        .hasMessageStartingWith("cluster host 8.8.8.8 is not an address of this machine");
    assertThatThrownBy(() -> ClusterSecret.of(" ", "BOTTLENOSE_CLUSTER_SECRET"))
        .hasMessage("the cluster secret from BOTTLENOSE_CLUSTER_SECRET is empty");
  }

  @Test
  void hazelcastJoinsByTcpOnTheGivenInterfaceWithTheSecretsNameAndFiltersJavaDeserialisation() {
    Config c = Cluster.hazelcastConfig(new ClusterSettings("127.0.0.1", 5701, List.of("127.0.0.1"), ALPHA));
    assertThat(c.getClusterName()).isEqualTo(ALPHA.clusterName());
    assertThat(c.getProperty("hazelcast.phone.home.enabled")).isEqualTo("false");
    assertThat(c.getNetworkConfig().getPort()).isEqualTo(5701);
    assertThat(c.getNetworkConfig().getInterfaces().getInterfaces()).containsExactly("127.0.0.1");
    assertThat(c.getNetworkConfig().getJoin().getMulticastConfig().isEnabled()).isFalse();
    assertThat(c.getNetworkConfig().getJoin().getTcpIpConfig().getMembers()).containsExactly("127.0.0.1");
    assertThat(c.getMultiMapConfig("__vertx.subs").getBackupCount()).isEqualTo(1);
    var filter = c.getSerializationConfig().getJavaSerializationFilterConfig();
    assertThat(filter.isDefaultsDisabled()).isTrue();
    assertThat(filter.getWhitelist().getPrefixes()).containsExactlyInAnyOrderElementsOf(Cluster.JAVA_SERIALIZATION_ALLOWED);
  }

  @Test
  void theEventBusRequiresMutualTls13() {
    EventBusOptions bus = Cluster.eventBusOptions(new ClusterSettings("127.0.0.1", 5701, List.of("127.0.0.1"), ALPHA));
    assertThat(bus.isSsl()).isTrue();
    assertThat(bus.getClientAuth()).isEqualTo(ClientAuth.REQUIRED);
    assertThat(bus.getEnabledSecureTransportProtocols()).containsExactly("TLSv1.3");
    assertThat(bus.getHost()).isEqualTo("127.0.0.1");
  }
}
