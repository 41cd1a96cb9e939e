package dev.bottlenose.web.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.bus.protocol.DaemonEvents;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlotsTest {

  @Test
  void sharesAreEachCategorysMetricAndCompiledIsCpuMinusInterpreted() {
    Map<String, Long> ids = new LinkedHashMap<>();
    ids.put("interpreted", 1L);
    ids.put("gc", 2L);
    ids.put("cpu_inclusive", 3L);
    ids.put("io_wait", 4L);
    JsonObject sample = new JsonObject("""
        {"atMillis": 5000, "intervalNanos": 1000000000, "cost": {"processCpuNanos": 1000000000}, "metrics": [
          {"metricId": 1, "value": 0.25}, {"metricId": 2, "value": 0.05}, {"metricId": 3, "value": 1.75},
          {"metricId": 4, "value": null, "error": "no reading yet"}, {"metricId": 9, "value": 0.5}]}""");
    JsonObject event = Plots.shares(DaemonEvents.Sample.from(sample), ids);
    assertThat(event.getLong("atMillis")).isEqualTo(5000);
    assertThat(event.getJsonObject("shares").getMap())
        .containsOnlyKeys("interpreted", "gc", "compiled")
        .containsEntry("interpreted", 0.25).containsEntry("gc", 0.05).containsEntry("compiled", 1.5);
  }

  @Test
  void everyCategoryHasAKindAndTheVmOnesAMetric() {
    assertThat(Plots.CATEGORIES).extracting(dev.bottlenose.metrics.VmAppBreakdown.Category::key).containsExactly("interpreted", "compiled", "gc", "jit",
        "class_load", "safepoint", "method_call_overhead", "object_creation_overhead", "sync_wait", "io_wait");
    assertThat(Plots.CATEGORIES).filteredOn(c -> c.kind().equals("vm")).allSatisfy(c -> assertThat(c.metric()).isNotNull());
  }

  @Test
  void anUnwatchedViewIsKeptThirtySecondsUnlessTheOptionsSayOtherwise() {
    // API.md promises 30 s; the end-to-end PlotLimitsTest watches a shorter one go.
    assertThat(Limits.DEFAULT.unwatched()).isEqualTo(java.time.Duration.ofSeconds(30));
    assertThat(new WebService.Options("127.0.0.1", 0, null, java.nio.file.Path.of("d")).unwatched()).isNull();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new WebService.Options("127.0.0.1", 0, null, java.nio.file.Path.of("d"),
        false, java.time.Duration.ZERO)).hasMessageContaining("must be positive");
  }
}
