package dev.bottlenose.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.daemon.it.TargetJvm;
import dev.bottlenose.model.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The commands against a real target, in process, and the demo through the built jar. */
class CliIT {
  private static TargetJvm target;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeAll
  static void start() throws Exception {
    target = TargetJvm.start();
  }

  @AfterAll
  static void stop() throws Exception {
    target.close();
  }

  private int run(String... args) {
    return Main.run(List.of(args), new Console(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String pid() {
    return Long.toString(target.pid());
  }

  @Test
  void jvmsListsTheTarget() {
    assertThat(run("jvms")).isZero();
    assertThat(out()).containsPattern("(?m)^" + pid() + "\\s+17\\.\\S*\\s+\\S+\\s+" + TargetJvm.MAIN.replace(".", "\\."));
  }

  @Test
  void resourcesPrintsAnIndentedSubtree() {
    assertThat(run("resources", "--pid", pid(), "/Code/itworkload", "--depth", "2")).isZero();
    assertThat(out()).contains("itworkload  [package]", "\n  ItWorkload  [class]", "\n    step(I)J  [method]");
  }

  @Test
  void measurePrintsValuesThenRemovesTheProbe() {
    assertThat(run("measure", "--pid", pid(), "--probe", "call_count", "--focus", TargetJvm.STEP, "--for", "1500ms",
        "--interval", "300ms")).isZero();
    assertThat(out()).contains("inserted call_count probe", "/s)", "of process CPU",
        "class " + TargetJvm.MAIN + " restored to its original bytes");
    assertThat(run("ledger", "--pid", pid())).isZero();
    assertThat(out()).contains("no probes are woven in");
  }

  @Test
  void theReadingCommandsPrintJsonWithJson() {
    assertThat(run("jvms", "--json")).isZero();
    assertThat(list(json(out()), "jvms")).anySatisfy(j -> assertThat(j).containsEntry("pid", target.pid())
        .containsEntry("main", TargetJvm.MAIN));
    out.reset();
    assertThat(run("resources", "--pid", pid(), "/Code/itworkload", "--depth", "2", "--json")).isZero();
    assertThat(list(json(out()), "resources")).anySatisfy(r -> assertThat(r).containsEntry("path", TargetJvm.STEP)
        .containsEntry("kind", "method"));
    out.reset();
    assertThat(run("measure", "--pid", pid(), "--probe", "call_count", "--focus", TargetJvm.STEP, "--for", "1500ms",
        "--json")).isZero();
    List<Map<String, Object>> lines = out().lines().map(CliIT::json).toList();
    assertThat(lines.get(0)).containsEntry("event", "inserted");
    assertThat(lines.subList(1, lines.size() - 1)).isNotEmpty().allSatisfy(l -> assertThat(l).containsEntry("event", "sample")
        .containsKeys("seconds", "value", "cost"));
    assertThat(lines.get(lines.size() - 1)).containsEntry("event", "removed");
    assertThat(json(Json.write(lines.get(lines.size() - 1).get("probe")))).containsEntry("classRestored", true);
    out.reset();
    assertThat(run("ledger", "--pid", pid(), "--json")).isZero();
    assertThat(json(out())).containsEntry("pid", target.pid()).containsEntry("probes", List.of());
    out.reset();
    assertThat(run("metric", "list", "--json")).isZero();
    assertThat(list(json(out()), "metrics")).anySatisfy(m -> assertThat(m).containsEntry("name", "cpu_inclusive")
        .containsEntry("unit", "fraction").containsEntry("origin", "built-in"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> json(String text) {
    return (Map<String, Object>) Json.parse(text);
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> list(Map<String, Object> json, String key) {
    return (List<Map<String, Object>>) json.get(key);
  }

  @Test
  void placesAreWrittenAsJavaWritesThem() {
    assertThat(run("resources", "--pid", pid(), "itworkload.ItWorkload", "--json")).isZero();
    assertThat(list(json(out()), "resources")).anySatisfy(r -> assertThat(r).containsEntry("path", TargetJvm.STEP));
    out.reset();
    assertThat(run("measure", "--pid", pid(), "--probe", "call_count", "--focus", "itworkload.ItWorkload::step",
        "--for", "1s", "--json")).isZero();
    assertThat(json(out().lines().findFirst().orElseThrow()).get("probe").toString()).contains(TargetJvm.STEP);
    out.reset();
    assertThat(run("measure", "--pid", pid(), "--probe", "call_count", "--focus", "itworkload.ItWorkload::fly"))
        .isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("no code matches 'itworkload.ItWorkload::fly': class itworkload.ItWorkload has no method fly");
  }

  @Test
  void vmAppAddsUpTheProgramsTheVmsAndTheBlockedTime() {
    assertThat(run("vmapp", "--pid", pid(), "--for", "3s", "--interval", "500ms", "--json")).isZero();
    Map<String, Object> view = json(out());
    List<Map<String, Object>> categories = list(view, "categories");
    assertThat(categories).extracting(c -> c.get("key")).containsExactly("interpreted", "compiled", "gc", "jit",
        "class_load", "safepoint", "method_call_overhead", "object_creation_overhead", "sync_wait", "io_wait");
    double app = categories.stream().filter(c -> c.get("kind").equals("app") && c.get("secondsPerSecond") != null)
        .mapToDouble(c -> ((Number) c.get("secondsPerSecond")).doubleValue()).sum();
    Map<?, ?> totals = (Map<?, ?>) view.get("totals");
    assertThat(((Number) totals.get("app")).doubleValue()).isCloseTo(app, org.assertj.core.data.Offset.offset(1e-9))
        .as("the workload's thread on the CPU").isPositive();
    assertThat(((Number) totals.get("total")).doubleValue()).isGreaterThanOrEqualTo(app);
    assertThat(categories).filteredOn(c -> c.get("key").equals("method_call_overhead")).singleElement()
        .satisfies(c -> assertThat((String) c.get("error")).contains("refine the focus"));
    assertThat(categories).as("estimated from samples at the whole program, where probes cannot go")
        .filteredOn(c -> c.get("key").equals("object_creation_overhead") || c.get("key").equals("sync_wait"))
        .hasSize(2).allSatisfy(c -> {
          assertThat(c.get("error")).isNull();
          assertThat(c.get("secondsPerSecond")).isNotNull();
        });
    out.reset();
    assertThat(run("ledger", "--pid", pid(), "--json")).isZero();
    assertThat(json(out())).containsEntry("probes", List.of());
  }

  @Test
  void anUnknownMethodIsARuntimeFailureNamingIt() {
    assertThat(run("measure", "--pid", pid(), "--probe", "call_count", "--focus", "/Code/itworkload/ItWorkload/fly()V"))
        .isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("/Code/itworkload/ItWorkload/fly()V");
  }
}
