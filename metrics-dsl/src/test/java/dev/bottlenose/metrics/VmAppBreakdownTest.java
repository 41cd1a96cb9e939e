package dev.bottlenose.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.metrics.VmAppBreakdown.Category;
import dev.bottlenose.model.Focus;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VmAppBreakdownTest {
  private static Category category(String key) {
    return VmAppBreakdown.CATEGORIES.stream().filter(c -> c.key().equals(key)).findFirst().orElseThrow();
  }

  @Test
  void lockWaitingIsEstimatedFromThreadSamplesUnlessTheFocusIsInTheCode() {
    assertThat(VmAppBreakdown.metric(category("sync_wait"), Focus.WHOLE_PROGRAM)).isEqualTo("sync_wait_sampled");
    assertThat(VmAppBreakdown.metric(category("sync_wait"), Focus.parse("</Threads/main>"))).isEqualTo("sync_wait_sampled");
    assertThat(VmAppBreakdown.metric(category("sync_wait"), Focus.parse("</Code/com.acme/Cache/get()V>")))
        .as("the thread samples have no stacks").isEqualTo("sync_wait");
  }

  @Test
  void objectCreationIsEstimatedFromAllocationSamplesAtAnyFocusTheWholeProgramIncluded() {
    assertThat(VmAppBreakdown.metric(category("object_creation_overhead"), Focus.WHOLE_PROGRAM))
        .isEqualTo("object_creation_sampled");
    assertThat(VmAppBreakdown.metric(category("object_creation_overhead"), Focus.parse("</Code/com.acme/Cache/get()V>")))
        .isEqualTo("object_creation_sampled");
  }

  @Test
  void theOtherCategoriesKeepTheirMetricAndTheDerivedOneHasNone() {
    assertThat(VmAppBreakdown.metric(category("gc"), Focus.WHOLE_PROGRAM)).isEqualTo("gc_time");
    assertThat(VmAppBreakdown.metric(category("method_call_overhead"), Focus.WHOLE_PROGRAM))
        .isEqualTo("method_call_overhead");
    assertThat(VmAppBreakdown.metric(category("compiled"), Focus.WHOLE_PROGRAM)).isNull();
    assertThat(VmAppBreakdown.shares(Map.of("cpu_inclusive", 0.5, "interpreted", 0.2))).containsEntry("compiled", 0.3);
  }
}
