package dev.bottlenose.agent.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class DiscoverySettingsTest {
  @Test
  void aDaemonsParkThresholdIsAppliedWithinItsBoundsAndMonitorEntriesKeepTheirs() {
    assertThat(DiscoverySettings.settings()).containsEntry("jdk.ThreadPark#threshold", "200000 ns")
        .containsEntry("jdk.ThreadPark#stackTrace", "true").containsEntry("jdk.JavaMonitorEnter#threshold", "200000 ns");
    assertThat(DiscoverySettings.settings(Map.of("jdk.ThreadPark", 3_200_000L, "jdk.JavaMonitorEnter", 3_200_000L)))
        .as("parks from 3.2 ms; contended monitor entries are not bounded")
        .containsEntry("jdk.ThreadPark#threshold", "3200000 ns")
        .containsEntry("jdk.ThreadPark#stackTrace", dev.bottlenose.agent.sources.JfrRecording.SLOW_STACKS)
        .containsEntry("jdk.JavaMonitorEnter#threshold", "200000 ns");
    assertThat(DiscoverySettings.settings(Map.of("jdk.ThreadPark", Long.MAX_VALUE)))
        .containsEntry("jdk.ThreadPark#threshold", "25600000 ns");
    assertThat(DiscoverySettings.settings(Map.of("jdk.ThreadPark", 0L)))
        .containsEntry("jdk.ThreadPark#threshold", "200000 ns");
    assertThat(DiscoverySettings.settings(Map.of("jdk.SocketRead", 0L))).as("not a bounded event: ignored")
        .isEqualTo(DiscoverySettings.settings());
  }

  @Test
  void classDefinitionsAreLeftOffWhenAsked() {
    assertThat(DiscoverySettings.settings()).containsEntry("jdk.ClassDefine#enabled", "true");
    assertThat(DiscoverySettings.settings(Map.of(), false)).containsEntry("jdk.ClassDefine#enabled", "false")
        .containsEntry("jdk.ExecutionSample#enabled", "true");
  }
}
