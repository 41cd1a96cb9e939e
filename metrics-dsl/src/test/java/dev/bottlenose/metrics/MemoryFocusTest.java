package dev.bottlenose.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.json.Json;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemoryFocusTest {
  private static final MetricLibrary LIB = MetricLibrary.builtin();

  private static ProbePlan compile(String metric, String focus) {
    return MetricCompiler.compile(LIB.metric(metric), Focus.parse(focus));
  }

  @Test
  void allocationProbesAtAnAllocatedTypeCountOnlyThatType() {
    ProbePlan plan = compile("obj_create_bytes", "</Code/com.acme/Sim/step()V, /Memory/int[]>");

    assertThat(Json.write(plan.items().get(0).toJson()))
        .isEqualTo("{\"id\":\"p0\",\"type\":\"probe\",\"method\":\"/Code/com.acme/Sim/step()V\",\"kind\":\"allocation\",\"allocatedType\":\"int[]\"}");
  }

  @Test
  void allocationSamplesAtAnAllocatedTypeAreFilteredByIt() {
    ProbePlan plan = compile("alloc_sampled_bytes", "</Memory/com.acme.Point>");

    assertThat(plan.items()).singleElement().satisfies(i -> assertThat(i.request())
        .isEqualTo(Map.of("source", Map.of("event", "alloc_sample", "type", "com.acme.Point"))));
  }

  @Test
  void objectCreationOverheadRefinesToTheAllocatedTypeInBothTerms() {
    ProbePlan plan = compile("object_creation_overhead", "</Code/com.acme/Sim/step()V, /Memory/com.acme.Point>");

    assertThat(plan.items()).filteredOn(i -> i.request().toString().contains("step()V")).hasSize(2)
        .allSatisfy(i -> assertThat(i.request().toString()).contains("com.acme.Point"));
    assertThat(plan.items()).filteredOn(i -> !i.request().toString().contains("step()V"))
        .as("the program-wide parts: GC pauses and all sampled bytes").hasSize(2)
        .allSatisfy(i -> assertThat(i.request().toString()).doesNotContain("Point"));
  }

  @Test
  void anAllocationSiteIsRefusedWithTheReason() {
    assertThatThrownBy(() -> compile("obj_create", "</Code/com.acme/Sim/step()V, /Memory/int[]/com.acme.Sim.step>"))
        .hasMessageContaining("refines /Memory to allocated types, not to allocation sites");
  }

  @Test
  void timeMetricsCannotBeRefinedToMemory() {
    assertThatThrownBy(() -> compile("cpu", "</Memory/int[]>"))
        .hasMessageContaining("cannot be refined to /Memory");
  }
}
