package dev.bottlenose.agent.sources;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Sampling periods asked for by sources, on a real JFR recording in this JVM. */
class WatchedSourcesTest {
  private static final long CONFIGURED = 20_000_000L;

  @Test
  void jfrSamplesAtTheShortestPeriodAskedForAndTheEffectivePeriodFollowsIt() {
    JfrRecording recording = new JfrRecording();
    assertThat(recording.start()).isTrue();
    try {
      WatchedSources sources = new WatchedSources(CONFIGURED, recording);
      long slow = sources.watch(Map.of("event", "cpu_sample", "period", 50L), "search at 1%");
      assertThat(sources.effectiveSamplePeriodNanos()).as("one source asking for 50 ms").isEqualTo(50_000_000L);

      long fast = sources.watch(Map.of("event", "cpu_sample", "code", "/Code/com.acme"), "search at 5%");
      assertThat(sources.effectiveSamplePeriodNanos()).as("and one asking for none: the configured 20 ms")
          .isEqualTo(CONFIGURED);

      assertThat(sources.unwatch(fast, "search at 5%")).isTrue();
      assertThat(sources.effectiveSamplePeriodNanos()).as("back to the slow source's period").isEqualTo(50_000_000L);

      assertThat(sources.unwatch(slow, "search at 1%")).isTrue();
      assertThat(sources.effectiveSamplePeriodNanos()).as("nothing samples: the configured period")
          .isEqualTo(CONFIGURED);
    } finally {
      recording.stop();
    }
  }
}
