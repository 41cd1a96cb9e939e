package dev.bottlenose.daemon.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The sampler takes a sample when a JFR flush has been counted, while a JFR-fed source is watched. */
class SamplerTest {
  private static final Duration LONG = Duration.ofSeconds(8);
  private final List<Long> reads = new CopyOnWriteArrayList<>();
  private final Map<Long, SourceInfo> sources = new ConcurrentHashMap<>();
  private Sampler sampler;

  @AfterEach
  void stop() {
    if (sampler != null) {
      sampler.stop();
    }
  }

  private Sampler started() {
    sampler = new Sampler(() -> {
      reads.add(System.nanoTime());
      return null;
    }, Map.of(), sources, LONG, 10, s -> s);
    sampler.start();
    await().atMost(Duration.ofSeconds(5)).until(() -> reads.size() == 1);
    return sampler;
  }

  @Test
  void aFlushTakesTheSampleAtOnceInsteadOfAtTheNextTickWhileASourceIsWatched() throws Exception {
    sources.put(1L, new SourceInfo(1, Map.of("event", "cpu_sample"), "test", 0));
    Sampler s = started();
    // a flush right after a sample is left to the next one: it moves the tick, takes nothing
    s.flushed();
    Thread.sleep(300);
    assertThat(reads).hasSize(1);
    // a flush a quarter of an interval after the last sample is sampled at once, long before the tick
    Thread.sleep(LONG.toMillis() / 4);
    s.flushed();
    await().atMost(Duration.ofSeconds(3)).until(() -> reads.size() == 2);
  }

  @Test
  void withoutAWatchedSourceAFlushChangesNothing() throws Exception {
    Sampler s = started();
    Thread.sleep(LONG.toMillis() / 4 + 100);
    s.flushed();
    Thread.sleep(500);
    assertThat(reads).hasSize(1);
  }
}
