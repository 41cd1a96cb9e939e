package dev.bottlenose.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.json.Json;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Metric AND focus: constraint expansion, forms, call sites, expansions and refusals with reasons. */
class CompilerTest {

  private static MetricDefinition define(String body) {
    String text = "metric m {\n  description \"d\"\n  combine sum\n" + body + "\n}\n";
    return MetricLibrary.builtin().with("t.metrics", text).library().metric("m");
  }

  private static ProbePlan compile(MetricDefinition d, String focus) {
    return MetricCompiler.compile(d, Focus.parse(focus));
  }

  private static String sources(ProbePlan plan) {
    StringBuilder sb = new StringBuilder();
    plan.items().forEach(i -> sb.append(i.id()).append('=').append(Json.write(i.request().getOrDefault("source", i.request()))).append('\n'));
    return sb.toString();
  }

  @Test
  void focusOnAHierarchyTheMetricDoesNotAllowSaysWhichItAllows() {
    MetricDefinition cpu = MetricLibrary.builtin().metric("cpu");
    assertThatThrownBy(() -> compile(cpu, "</Code/a/B/m, /SyncObjects/java.lang.Object>"))
        .isInstanceOf(MetricException.class)
        .hasMessage("metric 'cpu' cannot be refined to /SyncObjects (focus </Code/a/B/m, /SyncObjects/java.lang.Object>); "
            + "it allows /Code exclusive, /Threads, /Process, /Machine");
  }

  @Test
  void syncWaitRefinesToTheClassOfTheObjectBlockedOnAndNoFurther() {
    MetricDefinition sync = MetricLibrary.builtin().metric("sync_wait");
    assertThat(sources(compile(sync, "</SyncObjects/monitors/com.acme.Cache, /Code/com.acme/Cache/get>"))).isEqualTo(
        "s0={\"event\":\"monitor_enter\",\"code\":\"inclusive:/Code/com.acme/Cache/get\",\"resource\":\"/SyncObjects/monitors/com.acme.Cache\"}\n"
            + "s1={\"event\":\"lock_park\",\"code\":\"inclusive:/Code/com.acme/Cache/get\",\"resource\":\"/SyncObjects/monitors/com.acme.Cache\"}\n");
    assertThatThrownBy(() -> compile(sync, "</SyncObjects/monitors/com.acme.Cache/com.acme.Cache@1b6d3586>"))
        .hasMessageContaining("by class (JFR's events name the class, not the instance)")
        .hasMessageContaining("use its class /SyncObjects/monitors/com.acme.Cache");
  }

  @Test
  void sampledLockWaitingRefinesToTheClassOfTheLockToo() {
    MetricDefinition sampled = MetricLibrary.builtin().metric("sync_wait_sampled");
    assertThat(sources(compile(sampled, "</SyncObjects/locks/com.acme.Stock, /Threads/pool-1>"))).isEqualTo(
        "s0={\"event\":\"lock_sample\",\"thread\":\"/Threads/pool-1\",\"resource\":\"/SyncObjects/locks/com.acme.Stock\"}\n");
    assertThatThrownBy(() -> compile(sampled, "</SyncObjects/monitors/com.acme.Cache/com.acme.Cache@1b6d3586>"))
        .hasMessageContaining("use its class /SyncObjects/monitors/com.acme.Cache");
  }

  @Test
  void ioMetricsRefineToTheFileOrSocket() {
    ProbePlan plan = compile(MetricLibrary.builtin().metric("io_wait"), "</IO/socket/127.0.0.1:8080>");
    assertThat(sources(plan)).contains("s2={\"event\":\"socket_read\",\"resource\":\"/IO/socket/127.0.0.1:8080\"}");
    assertThat(plan.items()).hasSize(4);
    assertThat(sources(compile(MetricLibrary.builtin().metric("io_avg_size"), "</IO/file>"))).contains("\"resource\":\"/IO/file\"");
    assertThatThrownBy(() -> compile(MetricLibrary.builtin().metric("cpu"), "</IO/file>"))
        .hasMessageContaining("metric 'cpu' cannot be refined to /IO");
  }

  @Test
  void orAndNotExpandToSignedSourcesThatCountEachEventOnce() {
    MetricDefinition d = define("  unit fraction\n  accumulates cpu_time\n"
        + "  when exclusive:/Code/java.util/** or exclusive:/Code/java.io and not /Threads/main\n  refine /Code exclusive, /Threads\n  report fraction");
    ProbePlan plan = compile(d, "<>");
    assertThat(sources(plan)).isEqualTo(
        "s0={\"event\":\"cpu_sample\",\"code\":\"exclusive:/Code/java.util\"}\n"
            + "s1={\"event\":\"cpu_sample\",\"code\":\"exclusive:/Code/java.io\"}\n"
            + "s2={\"event\":\"cpu_sample\",\"code\":\"exclusive:/Code/java.io\",\"thread\":\"/Threads/main\"}\n");
    assertThat(plan.formulaText()).isEqualTo("((((s0.nanos + s1.nanos) - s2.nanos) * 1.0E-9) / interval_s)");
    Map<String, Evaluator.Delta> deltas = Map.of("s0", new Evaluator.Delta(3, 300_000_000, 0), "s1", new Evaluator.Delta(2, 200_000_000, 0),
        "s2", new Evaluator.Delta(1, 100_000_000, 0));
    assertThat(Evaluator.evaluate(plan, deltas, 2_000_000_000L, new Calibration(2, 20, 20_000_000))).isCloseTo(0.2, org.assertj.core.data.Offset.offset(1e-12));
  }

  @Test
  void focusNarrowsTheConstraintOrMakesItEmpty() {
    MetricDefinition d = define("  unit fraction\n  accumulates cpu_time\n  when exclusive:/Code/java.util/**\n  refine /Code exclusive, /Threads\n  report fraction");
    assertThat(sources(compile(d, "</Code/java.util/HashMap/get, /Threads/main>")))
        .isEqualTo("s0={\"event\":\"cpu_sample\",\"code\":\"exclusive:/Code/java.util/HashMap/get\",\"thread\":\"/Threads/main\"}\n");
    ProbePlan never = compile(d, "</Code/java.io>");
    assertThat(never.items()).isEmpty();
    assertThat(never.formulaText()).isEqualTo("((0 * 1.0E-9) / interval_s)");
    assertThat(never.notes()).containsExactly("the constraint and the focus never hold together; the value is always 0");
  }

  @Test
  void twoCodeFiltersOnOneEventAreRefusedWithTheReason() {
    MetricDefinition d = define("  unit fraction\n  accumulates duration of park\n  when inclusive:/Code/java.util.concurrent\n"
        + "  refine /Code inclusive\n  report fraction");
    assertThatThrownBy(() -> compile(d, "</Code/com.acme/Cache/get>"))
        .hasMessage("'inclusive:/Code/com.acme/Cache/get and inclusive:/Code/java.util.concurrent' needs two /Code filters on one event; a watched source takes one");
    MetricDefinition star = define("  unit fraction\n  accumulates cpu_time\n  when /Code/*/Sim\n  refine /Code exclusive\n  report fraction");
    assertThatThrownBy(() -> compile(star, "<>")).hasMessageContaining("the pattern /Code/*/Sim has a '*' it cannot send");
  }

  @Test
  void executionFormsFromTheMetricOrTheFocus() {
    MetricDefinition cpu = MetricLibrary.builtin().metric("cpu");
    ProbePlan c2 = compile(cpu, "</Code/com.acme/Sim/step()V/c2>");
    assertThat(sources(c2)).isEqualTo("s0={\"event\":\"cpu_sample\",\"code\":\"exclusive:/Code/com.acme/Sim/step()V\",\"form\":\"compiled\"}\n");
    assertThat(c2.notes()).containsExactly("form c2 is measured as 'compiled': JFR's frame types do not tell C1 code from C2 code");
    MetricDefinition interpreted = MetricLibrary.builtin().metric("interpreted_time");
    assertThatThrownBy(() -> compile(interpreted, "</Code/a/B/m/c1>")).hasMessage("metric 'interpreted_time' measures form interpreted but the focus names form c1");
    assertThatThrownBy(() -> compile(cpu, "</Code/a/B/m/jit>")).hasMessageStartingWith("a /Code focus may end in one execution form (c1, c2, compiled, inlined, interpreted, native)");
    assertThatThrownBy(() -> compile(MetricLibrary.builtin().metric("calls"), "</Code/a/B/m/c2>"))
        .hasMessage("metric 'calls' is measured by bytecode probes, which count every execution form; the focus names form c2 (/Code/a/B/m/c2)");
    assertThatThrownBy(() -> compile(MetricLibrary.builtin().metric("sync_wait"), "</Code/a/B/m/c2>"))
        .hasMessage("metric 'sync_wait' cannot be measured per execution form (focus /Code/a/B/m/c2); only cpu samples carry the form of the running code");
  }

  @Test
  void callerConditionBecomesACallSiteProbe() {
    MetricDefinition d = define("  unit count/s\n  accumulates calls\n  when caller:/Code/com.acme/Main/run()V\n  refine /Code exclusive\n  report rate");
    ProbePlan plan = compile(d, "</Code/com.acme/Sim/step()V>");
    assertThat(Json.write(plan.items().get(0).toJson()))
        .isEqualTo("{\"id\":\"p0\",\"type\":\"probe\",\"method\":\"/Code/com.acme/Main/run()V\",\"kind\":\"call_site\",\"callee\":\"/Code/com.acme/Sim/step()V\"}");
    assertThatThrownBy(() -> compile(d, "</Code/com.acme/Sim>")).hasMessageContaining("which needs one callee method; refine the focus to a method, not /Code/com.acme/Sim");
  }

  @Test
  void packageFocusOfAProbeMetricIsAnExpansionForTheDaemon() {
    ProbePlan plan = compile(MetricLibrary.builtin().metric("wall_exclusive"), "</Code/com.acme>");
    assertThat(Json.write(plan.items().get(0).toJson())).isEqualTo("{\"id\":\"x0\",\"type\":\"probes\",\"expand\":\"/Code/com.acme\",\"kind\":\"wall_exclusive\"}");
    assertThat(plan.notes()).containsExactly(
        "item for /Code/com.acme is one wall_exclusive probe per method of every class of the package, which the daemon lists from the target and sums");
  }

  @Test
  void derivedMetricsShareEqualItems() {
    String text = "metric twice { description \"d\" unit fraction value cpu + cpu * 2 combine sum }";
    MetricDefinition d = MetricLibrary.builtin().with("t", text).library().metric("twice");
    ProbePlan plan = compile(d, "</Threads/main>");
    assertThat(plan.items()).hasSize(1);
    assertThat(plan.formulaText()).isEqualTo("(((s0.nanos * 1.0E-9) / interval_s) + (((s0.nanos * 1.0E-9) / interval_s) * 2))");
    assertThatThrownBy(() -> compile(MetricLibrary.builtin().metric("object_creation_overhead"), "</Threads/main>"))
        .hasMessage("metric 'object_creation_overhead' cannot be refined to /Threads (focus </Threads/main>); it allows /Code exclusive, /Memory, /Process, /Machine");
  }

  @Test
  void processAndMachineFociAreLeftToTheDaemonThatOwnsTheTarget() {
    ProbePlan plan = compile(MetricLibrary.builtin().metric("gc_time"), "</Process/1234, /Machine/host>");
    assertThat(sources(plan)).isEqualTo("s0={\"event\":\"gc_pause\"}\n");
    assertThat(plan.toJson().get("focus")).isEqualTo("</Process/1234, /Machine/host>");
  }
}
