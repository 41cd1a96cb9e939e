package dev.bottlenose.agent.sources;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class JfrRecordingTest {
  @Test
  void theUnionTurnsAnEventOnWithAStackAtTheShortestPeriodAndThreshold() {
    var discovery = JfrRecording.event("jdk.ExecutionSample", true, Duration.ofMillis(50), null);
    discovery.putAll(JfrRecording.event("jdk.FileRead", false, null, Duration.ofMillis(10)));
    var sources = JfrRecording.event("jdk.ExecutionSample", false, Duration.ofMillis(20), null);
    sources.putAll(JfrRecording.event("jdk.FileRead", true, null, Duration.ZERO));
    sources.putAll(JfrRecording.event("jdk.ThreadPark", false, null, Duration.ZERO));

    var merged = JfrRecording.merge(List.of(discovery, sources));

    assertThat(merged).containsEntry("jdk.ExecutionSample#enabled", "true")
        .containsEntry("jdk.ExecutionSample#stackTrace", "true")
        .containsEntry("jdk.ExecutionSample#period", "20000000 ns")
        .containsEntry("jdk.FileRead#threshold", "0 ns")
        .containsEntry("jdk.FileRead#stackTrace", "true")
        .containsEntry("jdk.ThreadPark#enabled", "true");
  }

  @Test
  void aRecordingRunsWithItsRepositoryOnlyBetweenStartAndStop() {
    JfrRecording recording = new JfrRecording();
    recording.set("test", JfrRecording.event("jdk.GarbageCollection", false, null, Duration.ZERO));
    assertThat(recording.repository()).isNull();
    assertThat(recording.start()).isTrue();
    try {
      assertThat(recording.status()).isEqualTo("running");
      assertThat(recording.repository()).isNotNull();
      recording.set("more", JfrRecording.event("jdk.ThreadPark", false, null, Duration.ZERO));
    } finally {
      recording.stop();
    }
    assertThat(recording.status()).isEqualTo("stopped");
    assertThat(recording.repository()).isNull();
  }
}
