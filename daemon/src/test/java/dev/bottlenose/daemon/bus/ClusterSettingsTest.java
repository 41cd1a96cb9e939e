package dev.bottlenose.daemon.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.config.Config;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterSettingsTest {

  @Test
  void loopbackNeedsNoSecret() {
    ClusterSettings s = new ClusterSettings("127.0.0.1", 5701, List.of("127.0.0.1"), null);
    assertThat(s.clusterName()).isEqualTo("bottlenose");
  }

  @Test
  void anyOtherInterfaceNeedsASecret() {
    assertThatThrownBy(() -> new ClusterSettings("0.0.0.0", 5701, List.of("10.0.0.2"), null))
        .hasMessage("binding the cluster to 0.0.0.0 (not loopback) needs a shared secret: set "
            + "BOTTLENOSE_CLUSTER_SECRET to the same value on every member");
    assertThat(new ClusterSettings("0.0.0.0", 5701, List.of("10.0.0.2"), "s3cret").clusterName())
        .startsWith("bottlenose-");
  }

  @Test
  void theClusterNameDependsOnTheSecretButDoesNotContainIt() {
    String a = new ClusterSettings("127.0.0.1", 5701, List.of("127.0.0.1"), "alpha").clusterName();
    String b = new ClusterSettings("127.0.0.1", 5701, List.of("127.0.0.1"), "beta").clusterName();
    assertThat(a).isNotEqualTo(b).doesNotContain("alpha");
    assertThat(a).isEqualTo(new ClusterSettings("127.0.0.1", 5702, List.of("x"), "alpha").clusterName());
  }

  @Test
  void refusesBadPortsEmptyMembersAndEmptySecrets() {
    assertThatThrownBy(() -> new ClusterSettings("127.0.0.1", 0, List.of("127.0.0.1"), null))
        .hasMessage("cluster port 0 is not in 1..65535");
    assertThatThrownBy(() -> new ClusterSettings("127.0.0.1", 5701, List.of(), null))
        .hasMessage("no cluster members to join");
    assertThatThrownBy(() -> new ClusterSettings("127.0.0.1", 5701, List.of("127.0.0.1"), " "))
        .hasMessage("the cluster secret is empty");
  }

  @Test
  void hazelcastIsConfiguredForLoopbackTcpJoinWithoutMulticastOrPhoneHome() {
    Config c = Cluster.hazelcastConfig(new ClusterSettings("127.0.0.1", 5701, List.of("127.0.0.1"), null));
    assertThat(c.getClusterName()).isEqualTo("bottlenose");
    assertThat(c.getProperty("hazelcast.phone.home.enabled")).isEqualTo("false");
    assertThat(c.getNetworkConfig().getPort()).isEqualTo(5701);
    assertThat(c.getNetworkConfig().isPortAutoIncrement()).isTrue();
    assertThat(c.getNetworkConfig().getInterfaces().getInterfaces()).containsExactly("127.0.0.1");
    assertThat(c.getNetworkConfig().getJoin().getMulticastConfig().isEnabled()).isFalse();
    assertThat(c.getNetworkConfig().getJoin().getTcpIpConfig().getMembers()).containsExactly("127.0.0.1");
    assertThat(c.getMultiMapConfig("__vertx.subs").getBackupCount()).isEqualTo(1);
  }
}
