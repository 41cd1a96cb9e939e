package dev.bottlenose.metrics;

import static dev.bottlenose.metrics.ParserErrorsTest.errors;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Meaning errors: unknown events and hierarchies, units, names, cycles, refinements. */
class CheckerTest {

  private static String base(String name, String unit, String accumulates, String refine, String report) {
    return "metric " + name + " {\n  description \"d\"\n  unit " + unit + "\n  accumulates " + accumulates + "\n  refine " + refine
        + "\n  combine sum\n  report " + report + "\n}\n";
  }

  @Test
  void timeAccumulatorWithUnitBytes() {
    assertThat(errors(base("m", "bytes", "duration of gc_pause", "/Process", "total")))
        .containsExactly("3:8: unit 'bytes' does not match the value: 'duration of gc_pause' with 'report total' is in seconds");
  }

  @Test
  void fractionOfACount() {
    assertThat(errors(base("m", "fraction", "calls", "/Code exclusive", "fraction")))
        .containsExactly("7:10: 'report fraction' needs a time (wall_time, cpu_time or duration of …), but 'calls' is in count; use report rate or total");
  }

  @Test
  void unknownEventAndMeasureTheEventDoesNotHave() {
    assertThat(errors(base("m", "bytes", "bytes of gc_pauses, park", "/Process", "total"))).containsExactly(
        "4:24: unknown event 'gc_pauses'; expected one of cpu_sample, gc_pause, jit_compile, class_load, safepoint, monitor_enter, "
            + "monitor_wait, park, lock_park, sleep, file_read, file_write, socket_read, socket_write, alloc_sample, deopt, io_sample, lock_sample, class_define",
        "4:35: event 'park' reports no bytes; it reports count, duration");
  }

  @Test
  void refineClausesNamingHierarchiesTwiceOrTheWrongWay() {
    assertThat(errors(base("m", "fraction", "cpu_time", "/Code, /Threads exclusive, /Threads, /SyncObjects, /Process, /Process", "fraction")))
        .containsExactly(
            "5:10: 'refine /Code' needs a constraint method: 'exclusive', 'inclusive' or 'caller'",
            "5:17: a constraint method (exclusive) applies only to /Code, not /Threads",
            "5:47: 'cpu_time' cannot be restricted to /SyncObjects; it may refine /Code, /Threads, /Process, /Machine",
            "5:71: 'refine' names /Process twice");
  }

  @Test
  void refinementsAnEventCannotSupport() {
    assertThat(errors(base("m", "fraction", "duration of safepoint", "/Code inclusive", "fraction")))
        .containsExactly("5:10: 'duration of safepoint' cannot be restricted to /Code; it may refine /Process, /Machine");
    assertThat(errors(base("m", "count/s", "count of deopt", "/Code caller, /Threads", "rate")))
        .containsExactly("5:10: 'count of deopt' refines /Code only with 'exclusive', not caller");
    String jit = base("m", "fraction", "duration of jit_compile", "/Code exclusive", "fraction").replace("  combine", "  when caller:/Code/a/B/m or /Code/a/B/m()V/c2\n  combine");
    assertThat(errors(jit)).containsExactly(
        "6:15: jit_compile and deopt match the compiled method itself; use exclusive: or inclusive:, not caller:",
        "6:30: a /Code constraint names at most a method; give an execution form with the 'form' clause, not in /Code/a/B/m()V/c2");
    assertThat(errors(base("m", "count/s", "calls", "/Code caller", "rate")))
        .containsExactly("5:10: 'calls' refines /Code only with 'exclusive', not caller");
  }

  @Test
  void whenConditionsOnlyOnWhatSourcesFilter() {
    String text = "metric m {\n  description \"d\"\n  unit fraction\n  accumulates duration of park\n"
        + "  when inclusive:/Code/java.util.concurrent/** and not (/Threads/pool-1 or exclusive:/SyncObjects/x or /IO/x or caller:/Threads/t)\n"
        + "  refine /Code inclusive\n  combine sum\n  report fraction\n  form c2\n}\n";
    assertThat(errors(text)).containsExactly(
        "5:86: a constraint method (exclusive:) applies only to /Code, not /SyncObjects",
        "5:104: 'duration of park' can be constrained only by /Code, /Threads and /SyncObjects, not by /IO",
        "5:120: a constraint method (caller:) applies only to /Code, not /Threads",
        "9:8: 'form' applies only to cpu samples (cpu_time or events of cpu_sample); 'duration of park' has no execution form");
  }

  @Test
  void probesTakeOnlyACallerMethod() {
    String text = base("m", "count/s", "allocations", "/Code exclusive", "rate").replace("  combine", "  when caller:/Code/a/B/m\n  combine");
    assertThat(errors(text)).containsExactly("6:15: 'allocations' is measured by a bytecode probe in the focus method; it takes no 'when' condition");
    assertThat(errors(base("m", "count/s", "calls", "/Code exclusive", "rate").replace("  combine", "  when caller:/Code/a/B/m\n  combine"))).isEmpty();
  }

  @Test
  void duplicateNamesInTheFileAndAgainstTheLibrary() {
    String text = base("cpu", "fraction", "cpu_time", "/Process", "fraction") + base("m", "count/s", "calls", "/Code exclusive", "rate")
        + base("m", "count/s", "calls", "/Code exclusive", "rate") + base("sample_period", "count/s", "calls", "/Code exclusive", "rate");
    assertThat(errors(text)).containsExactly(
        "1:8: metric 'cpu' is already defined in the library; choose another name",
        "17:8: second metric named 'm' (the first is at 9:8)",
        "25:8: 'sample_period' is reserved (a calibration constant or 'program'); choose another metric name");
  }

  @Test
  void derivedMetricsCycleAndUnknownNames() {
    String text = "metric a { description \"a\" unit fraction value b combine sum }\n"
        + "metric b { description \"b\" unit fraction value a * 2 combine sum }\n"
        + "metric c { description \"c\" unit fraction value c + cpu combine sum }\n"
        + "metric d { description \"d\" unit fraction value cpux + program(nope) combine sum }\n";
    assertThat(errors(text)).containsExactly(
        "2:48: cycle among derived metrics: a -> b -> a",
        "3:48: cycle among derived metrics: c -> c",
        "4:48: unknown metric 'cpux'; expected a metric of this file or the library, or a calibration constant (allocation_size, allocation_time, sample_period, virtual_call_time)",
        "4:63: unknown metric 'nope'; expected a metric of this file or the library, or a calibration constant (allocation_size, allocation_time, sample_period, virtual_call_time)");
  }

  @Test
  void derivedUnits() {
    String text = "metric avg_size { description \"x\" value io_bytes / io_ops combine avg }\n"
        + "metric wrong { description \"x\" unit fraction value io_bytes / io_ops combine avg }\n"
        + "metric sum { description \"x\" unit ratio value 1 + cpu * calls combine sum }\n"
        + "metric share { description \"x\" unit ratio value cpu / wall combine sum report fraction refine /Code exclusive, /Threads }\n";
    assertThat(errors(text)).containsExactly(
        "1:8: derived metric 'avg_size' has no 'unit' clause; its value is in bytes/count, so write 'unit bytes/count'",
        "2:37: unit 'fraction' does not match the value io_bytes / io_ops, which is in bytes/count",
        "3:49: cannot add count/s to fraction in 1 + cpu * calls; both sides of '+' need the same unit",
        "4:72: 'report' does not apply to derived metric 'share', whose 'value' is computed from other metrics",
        "4:95: a derived metric refines /Code the way each of its operands does; drop 'exclusive'",
        "4:112: an operand of 'share' cannot be refined to /Threads; its operands allow /Code, /Process, /Machine");
  }

  @Test
  void userMetricsUseBuiltInsAndAreCompiled() {
    String text = "# share of CPU in the focus that ran interpreted\n"
        + "metric interpreted_share {\n  description \"interpreted CPU over all CPU\"\n  unit fraction\n  value interpreted_time / cpu\n  combine avg\n}\n";
    MetricLibrary lib = MetricLibrary.builtin().with("mine.metrics", text).library();
    MetricDefinition d = lib.metric("interpreted_share");
    assertThat(d.refinements()).containsExactly("/Code exclusive", "/Threads", "/Process", "/Machine");
    assertThat(d.notes()).isEqualTo("share of CPU in the focus that ran interpreted");
    assertThat(d.unit()).isEqualTo("fraction");
    assertThat(MetricLibrary.builtin().contains("interpreted_share")).isFalse();
  }
}
