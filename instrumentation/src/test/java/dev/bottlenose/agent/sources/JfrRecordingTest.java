package dev.bottlenose.agent.sources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.agent.discovery.DiscoverySettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
  void discoverysSlowIoStacksAreLeftOutWhileTheWholeProgramsIoIsCountedWithoutThem() {
    var discovery = dev.bottlenose.agent.discovery.DiscoverySettings.settings();
    assertThat(JfrRecording.merge(List.of(discovery))).containsEntry("jdk.SocketRead#stackTrace", "true")
        .containsEntry("jdk.FileWrite#stackTrace", "true");
    // a search counting every socket read of the program: 2,600 a second on an HTTP server, each with a stack walk
    var wholeProgram = JfrRecording.event("jdk.SocketRead", false, null, Duration.ZERO);
    assertThat(JfrRecording.merge(List.of(discovery, wholeProgram))).containsEntry("jdk.SocketRead#threshold", "0 ns")
        .containsEntry("jdk.SocketRead#stackTrace", "false").containsEntry("jdk.FileWrite#stackTrace", "true");
    var inAMethod = JfrRecording.event("jdk.SocketRead", true, null, Duration.ZERO);
    assertThat(JfrRecording.merge(List.of(discovery, wholeProgram, inAMethod)))
        .containsEntry("jdk.SocketRead#stackTrace", "true");
  }

  @Test
  void slowOnlyStacksAreLeftOutWhileAnotherPartCountsEveryEventWithoutThem() {
    var discovery = JfrRecording.event("jdk.ThreadPark", true, null, Duration.ofMillis(3));
    discovery.put("jdk.ThreadPark#stackTrace", JfrRecording.SLOW_STACKS);
    discovery.putAll(JfrRecording.event("jdk.SocketRead", true, null, Duration.ofMillis(10)));
    discovery.putAll(JfrRecording.event("jdk.ExecutionSample", true, Duration.ofMillis(100), null));
    var wholeProgram = JfrRecording.event("jdk.ThreadPark", false, null, Duration.ZERO);
    wholeProgram.putAll(JfrRecording.event("jdk.SocketRead", false, null, Duration.ZERO));
    wholeProgram.putAll(JfrRecording.event("jdk.ExecutionSample", false, Duration.ofMillis(20), null));

    var merged = JfrRecording.merge(List.of(discovery, wholeProgram));

    assertThat(merged).containsEntry("jdk.ThreadPark#threshold", "0 ns")
        .containsEntry("jdk.ThreadPark#stackTrace", "false")
        .containsEntry("jdk.SocketRead#stackTrace", "true")
        .containsEntry("jdk.ExecutionSample#stackTrace", "true");
    assertThat(JfrRecording.merge(List.of(discovery))).containsEntry("jdk.ThreadPark#stackTrace", "true")
        .containsEntry("jdk.ThreadPark#threshold", "3000000 ns");
    assertThat(JfrRecording.merge(List.of(wholeProgram, discovery))).containsEntry("jdk.ThreadPark#stackTrace", "false");
    assertThat(JfrRecording.merge(List.of(discovery, wholeProgram, JfrRecording.event("jdk.ThreadPark", true, null,
        Duration.ZERO)))).containsEntry("jdk.ThreadPark#stackTrace", "true");
  }

  @Test
  void classDefinitionsThatDiscoveryLeavesOffStayOnForASourceThatCountsThem() {
    var discovery = dev.bottlenose.agent.discovery.DiscoverySettings.settings(java.util.Map.of(), false);
    assertThat(JfrRecording.merge(List.of(discovery))).containsEntry("jdk.ClassDefine#enabled", "false");
    var source = JfrRecording.event("jdk.ClassDefine", false, null, null);
    assertThat(JfrRecording.merge(List.of(discovery, source))).containsEntry("jdk.ClassDefine#enabled", "true");
  }

  @Test
  void theUnionKeepsTheHighestThrottleAndALimitBeatsNone() {
    var discovery = JfrRecording.throttle("jdk.ObjectAllocationSample", 150);
    var sources = JfrRecording.throttle("jdk.ObjectAllocationSample", 500);

    assertThat(JfrRecording.merge(List.of(discovery, sources))).containsEntry("jdk.ObjectAllocationSample#throttle", "500/s");
    assertThat(JfrRecording.merge(List.of(sources, discovery))).containsEntry("jdk.ObjectAllocationSample#throttle", "500/s");
    assertThat(JfrRecording.merge(List.of(discovery, java.util.Map.of("jdk.ObjectAllocationSample#throttle", "off"))))
        .containsEntry("jdk.ObjectAllocationSample#throttle", "off");
    assertThat(JfrRecording.perSecond("2/ms")).isEqualTo(2000);
    assertThat(JfrRecording.perSecond("60/m")).isEqualTo(1);
  }

  @Test
  void discoveryKeepsAllocationSamplesToItsThrottleWhileTheProgramAllocatesHard(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("alloc.jfr");
    long start = System.nanoTime();
    try (Recording r = new Recording(DiscoverySettings.settings())) {
      r.start();
      allocateFor(Duration.ofMillis(1500));
      r.stop();
      r.dump(file);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    long samples = RecordingFile.readAllEvents(file).stream()
        .filter(e -> e.getEventType().getName().equals("jdk.ObjectAllocationSample")).count();
    assertThat(samples).as("allocation samples in %.1f s at 150/s", seconds).isPositive().isLessThan(Math.round(2 * 150 * seconds) + 50);
  }

  private static volatile Object sink;

  private static void allocateFor(Duration d) {
    long end = System.nanoTime() + d.toNanos();
    while (System.nanoTime() < end) {
      for (int i = 0; i < 1000; i++) {
        sink = new byte[256];
      }
    }
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
