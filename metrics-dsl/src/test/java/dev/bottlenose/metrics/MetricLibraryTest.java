package dev.bottlenose.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import org.junit.jupiter.api.Test;

/** Loading the built-ins and user files: new libraries on success, errors and no change on failure. */
class MetricLibraryTest {

  @Test
  void builtinsIncludeEveryMetricTheIssueNames() {
    MetricLibrary lib = MetricLibrary.builtin();
    for (String name : new String[] {"cpu", "cpu_inclusive", "wall", "wall_exclusive", "calls", "obj_create", "obj_create_bytes", "sync_wait", "io_wait",
        "gc_time", "jit_compile_time", "class_load_time", "safepoint_time", "interpreted_time", "method_call_overhead", "object_creation_overhead"}) {
      assertThat(lib.contains(name)).as(name).isTrue();
      assertThat(lib.metric(name).notes()).as(name).isNotBlank();
    }
    assertThat(lib.metric("sync_wait").refinable()).containsExactly(Hierarchy.CODE, Hierarchy.SYNC_OBJECTS, Hierarchy.THREADS, Hierarchy.PROCESS, Hierarchy.MACHINE);
    assertThat(lib.metric("io_wait").refinable()).containsExactly(Hierarchy.CODE, Hierarchy.IO, Hierarchy.THREADS, Hierarchy.PROCESS, Hierarchy.MACHINE);
    assertThat(lib.metric("gc_time").refinements()).containsExactly("/Process", "/Machine");
    assertThat(lib.metric("method_call_overhead").refinements()).containsExactly("/Code", "/Process", "/Machine");
    assertThat(lib.metric("method_call_overhead").accumulates()).isEqualTo("calls * (1 - cpu_inlined / cpu_inclusive) * virtual_call_time");
    assertThat(lib.metric("interpreted_time").form()).isEqualTo("interpreted");
  }

  @Test
  void filesStackAndFailedFilesChangeNothing() {
    MetricLibrary one = MetricLibrary.builtin().with("a.metrics",
        "metric parks { description \"p\" unit count/s accumulates count of park refine /Code inclusive, /Threads combine sum report rate }").library();
    MetricLibrary two = one.with("b.metrics", "metric parks_per_call { description \"q\" unit ratio value parks / calls combine avg }").library();
    assertThat(two.metric("parks_per_call").refinements()).containsExactly("/Code");
    assertThat(MetricCompiler.compile(two.metric("parks_per_call"), Focus.parse("</Code/a/B/m>")).items()).hasSize(2);

    Diagnostics bad = two.with("c.metrics", "metric parks { description \"again\" }");
    assertThat(bad.hasErrors()).isTrue();
    assertThatThrownBy(bad::library).isInstanceOf(MetricException.class)
        .hasMessage("the metric file has errors:\nc.metrics:1:8: metric 'parks' is already defined in the library; choose another name");
    assertThat(MetricLibrary.builtin().contains("parks")).isFalse();
    assertThat(two.metrics()).hasSize(MetricLibrary.builtin().metrics().size() + 2);
  }

  @Test
  void unknownMetricNamesTheKnownOnes() {
    assertThatThrownBy(() -> MetricLibrary.empty().metric("cpu")).hasMessage("unknown metric 'cpu'; known metrics: ");
    assertThatThrownBy(() -> MetricLibrary.builtin().metric("cpux")).hasMessageStartingWith("unknown metric 'cpux'; known metrics: cpu, cpu_inclusive, wall,");
  }

  @Test
  void rootConstraintsAlwaysHold() {
    MetricDefinition d = MetricLibrary.builtin().with("r", "metric m { description \"d\" unit fraction accumulates cpu_time when /Code/** or /Threads "
        + "refine /Code exclusive combine sum report fraction }").library().metric("m");
    assertThat(MetricCompiler.compile(d, Focus.WHOLE_PROGRAM).toJson().get("formulaText")).isEqualTo("((s0.nanos * 1.0E-9) / interval_s)");
  }
}
