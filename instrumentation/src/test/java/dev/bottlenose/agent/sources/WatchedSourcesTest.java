package dev.bottlenose.agent.sources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.agent.wire.SourceSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Sampling periods asked for by sources, on a real JFR recording in this JVM. Other tests' recordings may be
 * running in the same JVM (JFR samples at the shortest period of all), so the periods here are shorter than
 * JFR's own profiles' (10 and 20 ms).
 */
class WatchedSourcesTest {
  private static final long CONFIGURED = 5_000_000L;
  private static final long ASKED = 9_000_000L;

  @Test
  void jfrSamplesAtTheShortestPeriodAskedForAndTheEffectivePeriodFollowsIt() {
    JfrRecording recording = new JfrRecording();
    assertThat(recording.start()).isTrue();
    try {
      WatchedSources sources = new WatchedSources(CONFIGURED, recording);
      long slow = sources.watch(SourceSpec.fromMap(Map.of("event", "cpu_sample", "period", 9L)), "search at 1%");
      assertThat(sources.effectiveSamplePeriodNanos()).as("one source asking for 9 ms").isEqualTo(ASKED);
      long same = sources.watch(SourceSpec.fromMap(Map.of("event", "cpu_sample", "period", 9L, "thread", "/Threads/main")), "search at 1%");
      assertThat(sources.unwatch(same, "search at 1%")).isTrue();
      assertThat(sources.effectiveSamplePeriodNanos()).as("another source still asks for 9 ms").isEqualTo(ASKED);

      long fast = sources.watch(SourceSpec.fromMap(Map.of("event", "cpu_sample", "code", "/Code/com.acme")), "search at 5%");
      assertThat(sources.effectiveSamplePeriodNanos()).as("and one asking for none: the configured 5 ms")
          .isEqualTo(CONFIGURED);

      assertThat(sources.unwatch(fast, "search at 5%")).isTrue();
      assertThat(sources.effectiveSamplePeriodNanos()).as("back to the slow source's period").isEqualTo(ASKED);

      assertThat(sources.unwatch(slow, "search at 1%")).isTrue();
      assertThat(sources.effectiveSamplePeriodNanos()).as("no source of ours samples any more")
          .isNotEqualTo(ASKED).isGreaterThanOrEqualTo(CONFIGURED);
    } finally {
      recording.stop();
    }
  }

  @Test
  void allocationSamplesComeAtTheRateOfThePeriodTheSourceAsksFor() {
    JfrRecording recording = new JfrRecording();
    WatchedSources sources = new WatchedSources(20_000_000L, recording);
    String throttle = "jdk.ObjectAllocationSample#throttle";
    long slow = sources.watch(SourceSpec.fromMap(Map.of("event", "alloc_sample", "period", 100L)), "search at 1%");
    assertThat(recording.merged()).as("10 a period of 100 ms").containsEntry(throttle, "100/s")
        .doesNotContainKey("jdk.ObjectAllocationSample#period");
    long fast = sources.watch(SourceSpec.fromMap(Map.of("event", "alloc_sample")), "search at 5%");
    assertThat(recording.merged()).as("none asked: the configured 20 ms, the higher rate of the two")
        .containsEntry(throttle, "500/s");
    assertThat(sources.unwatch(fast, "search at 5%")).isTrue();
    assertThat(recording.merged()).containsEntry(throttle, "100/s");
    assertThat(sources.unwatch(slow, "search at 1%")).isTrue();
    assertThat(recording.merged()).doesNotContainKey(throttle);
  }
}
