package dev.bottlenose.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What every built-in metric compiles to on a method focus and on the whole program. */
class BuiltinPlansTest {
  private static final Focus METHOD = Focus.parse("</Code/com.acme/Sim/step()V>");

  @ParameterizedTest(name = "{0} on a method")
  @MethodSource("onMethod")
  void onAMethod(String metric, String itemsOrError, String formula) {
    check(metric, METHOD, itemsOrError, formula);
  }

  @ParameterizedTest(name = "{0} on the whole program")
  @MethodSource("onWholeProgram")
  void onTheWholeProgram(String metric, String itemsOrError, String formula) {
    check(metric, Focus.WHOLE_PROGRAM, itemsOrError, formula);
  }

  private static void check(String metric, Focus focus, String itemsOrError, String formula) {
    MetricDefinition d = MetricLibrary.builtin().metric(metric);
    if (formula == null) {
      assertThatThrownBy(() -> MetricCompiler.compile(d, focus)).isInstanceOf(MetricException.class).hasMessage(itemsOrError);
      return;
    }
    ProbePlan plan = MetricCompiler.compile(d, focus);
    List<Object> items = new ArrayList<>();
    plan.items().forEach(i -> items.add(i.toJson()));
    assertThat(Json.write(items)).isEqualTo(itemsOrError);
    assertThat(plan.formulaText()).isEqualTo(formula);
    ProbePlan back = ProbePlan.fromJson(plan.toString());
    assertThat(back.toString()).isEqualTo(plan.toString());
  }

  static Arguments err(String metric, String message) {
    return Arguments.of(metric, message, null);
  }

  @org.junit.jupiter.api.Test
  void everyBuiltInIsCovered() {
    List<String> names = new ArrayList<>();
    MetricLibrary.builtin().metrics().forEach(d -> names.add(d.name()));
    assertThat(onMethod().map(a -> (String) a.get()[0])).containsExactlyElementsOf(names);
    assertThat(onWholeProgram().map(a -> (String) a.get()[0])).containsExactlyElementsOf(names);
  }

  static Stream<Arguments> onMethod() {
    return Stream.of(
Arguments.of("cpu", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"cpu_sample\",\"code\":\"exclusive:/Code/com.acme/Sim/step()V\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("cpu_inclusive", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"cpu_sample\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("wall", "[{\"id\":\"p0\",\"type\":\"probe\",\"method\":\"/Code/com.acme/Sim/step()V\",\"kind\":\"wall_inclusive\"}]", "((p0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("wall_exclusive", "[{\"id\":\"p0\",\"type\":\"probe\",\"method\":\"/Code/com.acme/Sim/step()V\",\"kind\":\"wall_exclusive\"}]", "((p0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("calls", "[{\"id\":\"p0\",\"type\":\"probe\",\"method\":\"/Code/com.acme/Sim/step()V\",\"kind\":\"call_count\"}]", "(p0.count / interval_s)"),
        Arguments.of("obj_create", "[{\"id\":\"p0\",\"type\":\"probe\",\"method\":\"/Code/com.acme/Sim/step()V\",\"kind\":\"allocation\"}]", "(p0.count / interval_s)"),
        Arguments.of("obj_create_bytes", "[{\"id\":\"p0\",\"type\":\"probe\",\"method\":\"/Code/com.acme/Sim/step()V\",\"kind\":\"allocation\"}]", "(p0.bytes / interval_s)"),
        Arguments.of("alloc_sampled_bytes", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"alloc_sample\",\"code\":\"exclusive:/Code/com.acme/Sim/step()V\"}}]", "(s0.bytes / interval_s)"),
        Arguments.of("sync_wait", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"monitor_enter\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"lock_park\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}}]", "(((s0.nanos + s1.nanos) * 1.0E-9) / interval_s)"),
        err("sync_wait_sampled", "metric 'sync_wait_sampled' cannot be refined to /Code (focus </Code/com.acme/Sim/step()V>); it allows /SyncObjects, /Threads, /Process, /Machine"),
Arguments.of("wait_time", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"monitor_enter\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"monitor_wait\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s2\",\"type\":\"source\",\"source\":{\"event\":\"park\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}}]", "((((s0.nanos + s1.nanos) + s2.nanos) * 1.0E-9) / interval_s)"),
        Arguments.of("io_wait", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"file_read\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"file_write\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s2\",\"type\":\"source\",\"source\":{\"event\":\"socket_read\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s3\",\"type\":\"source\",\"source\":{\"event\":\"socket_write\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}}]", "(((((s0.nanos + s1.nanos) + s2.nanos) + s3.nanos) * 1.0E-9) / interval_s)"),
        Arguments.of("io_time", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"io_sample\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("io_ops", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"file_read\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"file_write\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s2\",\"type\":\"source\",\"source\":{\"event\":\"socket_read\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s3\",\"type\":\"source\",\"source\":{\"event\":\"socket_write\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}}]", "((((s0.count + s1.count) + s2.count) + s3.count) / interval_s)"),
        Arguments.of("io_bytes", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"file_read\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"file_write\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s2\",\"type\":\"source\",\"source\":{\"event\":\"socket_read\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s3\",\"type\":\"source\",\"source\":{\"event\":\"socket_write\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}}]", "((((s0.bytes + s1.bytes) + s2.bytes) + s3.bytes) / interval_s)"),
        Arguments.of("io_avg_size", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"file_read\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"file_write\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s2\",\"type\":\"source\",\"source\":{\"event\":\"socket_read\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s3\",\"type\":\"source\",\"source\":{\"event\":\"socket_write\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}}]", "(((((s0.bytes + s1.bytes) + s2.bytes) + s3.bytes) / interval_s) / ((((s0.count + s1.count) + s2.count) + s3.count) / interval_s))"),
        err("gc_time", "metric 'gc_time' cannot be refined to /Code (focus </Code/com.acme/Sim/step()V>); it allows /Process, /Machine"),
        Arguments.of("jit_compile_time", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"jit_compile\",\"code\":\"exclusive:/Code/com.acme/Sim/step()V\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("class_load_time", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"class_load\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        err("class_load_by_loader", "metric 'class_load_by_loader' charges each class defined to a class (its loader's, or"
            + " its own for the JDK's loaders), so it is measured at a /Code package or class, not at a method (focus"
            + " </Code/com.acme/Sim/step()V>)"),
        err("safepoint_time", "metric 'safepoint_time' cannot be refined to /Code (focus </Code/com.acme/Sim/step()V>); it allows /Process, /Machine"),
        Arguments.of("interpreted_time", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"cpu_sample\",\"code\":\"exclusive:/Code/com.acme/Sim/step()V\",\"form\":\"interpreted\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("cpu_inlined", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"cpu_sample\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\",\"form\":\"inlined\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("method_call_overhead", "[{\"id\":\"p0\",\"type\":\"probe\",\"method\":\"/Code/com.acme/Sim/step()V\",\"kind\":\"call_count\"},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"cpu_sample\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\",\"form\":\"inlined\"}},{\"id\":\"s2\",\"type\":\"source\",\"source\":{\"event\":\"cpu_sample\",\"code\":\"inclusive:/Code/com.acme/Sim/step()V\"}}]", "(((p0.count / interval_s) * (1 - (((s1.nanos * 1.0E-9) / interval_s) / ((s2.nanos * 1.0E-9) / interval_s)))) * calibration.virtualCallNanos_s)"),
        Arguments.of("object_creation_overhead", "[{\"id\":\"p0\",\"type\":\"probe\",\"method\":\"/Code/com.acme/Sim/step()V\",\"kind\":\"allocation\"},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"gc_pause\"}},{\"id\":\"s2\",\"type\":\"source\",\"source\":{\"event\":\"alloc_sample\",\"code\":\"exclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s3\",\"type\":\"source\",\"source\":{\"event\":\"alloc_sample\"}}]", "(((p0.count / interval_s) * calibration.allocationNanos_s) + (((s1.nanos * 1.0E-9) / interval_s) * ((s2.bytes / interval_s) / (s3.bytes / interval_s))))"),
        Arguments.of("object_creation_sampled", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"alloc_sample\",\"code\":\"exclusive:/Code/com.acme/Sim/step()V\"}},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"gc_pause\"}},{\"id\":\"s2\",\"type\":\"source\",\"source\":{\"event\":\"alloc_sample\"}}]", "((((s0.bytes / interval_s) / calibration.allocationBytes) * calibration.allocationNanos_s) + (((s1.nanos * 1.0E-9) / interval_s) * ((s0.bytes / interval_s) / (s2.bytes / interval_s))))"));
  }

  static Stream<Arguments> onWholeProgram() {
    return Stream.of(
Arguments.of("cpu", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"cpu_sample\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("cpu_inclusive", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"cpu_sample\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("wall", "[]", "(interval_s / interval_s)"),
        Arguments.of("wall_exclusive", "[]", "(interval_s / interval_s)"),
        err("calls", "metric 'calls' is measured by bytecode probes in the focus's methods; at the whole program that would be every method of the target, so refine the focus to a /Code package, class or method"),
        err("obj_create", "metric 'obj_create' is measured by bytecode probes in the focus's methods; at the whole program that would be every method of the target, so refine the focus to a /Code package, class or method"),
        err("obj_create_bytes", "metric 'obj_create_bytes' is measured by bytecode probes in the focus's methods; at the whole program that would be every method of the target, so refine the focus to a /Code package, class or method"),
        Arguments.of("alloc_sampled_bytes", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"alloc_sample\"}}]", "(s0.bytes / interval_s)"),
        Arguments.of("sync_wait", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"monitor_enter\"}},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"lock_park\"}}]", "(((s0.nanos + s1.nanos) * 1.0E-9) / interval_s)"),
        Arguments.of("sync_wait_sampled", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"lock_sample\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
Arguments.of("wait_time", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"monitor_enter\"}},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"monitor_wait\"}},{\"id\":\"s2\",\"type\":\"source\",\"source\":{\"event\":\"park\"}}]", "((((s0.nanos + s1.nanos) + s2.nanos) * 1.0E-9) / interval_s)"),
        Arguments.of("io_wait", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"file_read\"}},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"file_write\"}},{\"id\":\"s2\",\"type\":\"source\",\"source\":{\"event\":\"socket_read\"}},{\"id\":\"s3\",\"type\":\"source\",\"source\":{\"event\":\"socket_write\"}}]", "(((((s0.nanos + s1.nanos) + s2.nanos) + s3.nanos) * 1.0E-9) / interval_s)"),
        Arguments.of("io_time", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"io_sample\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("io_ops", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"file_read\"}},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"file_write\"}},{\"id\":\"s2\",\"type\":\"source\",\"source\":{\"event\":\"socket_read\"}},{\"id\":\"s3\",\"type\":\"source\",\"source\":{\"event\":\"socket_write\"}}]", "((((s0.count + s1.count) + s2.count) + s3.count) / interval_s)"),
        Arguments.of("io_bytes", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"file_read\"}},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"file_write\"}},{\"id\":\"s2\",\"type\":\"source\",\"source\":{\"event\":\"socket_read\"}},{\"id\":\"s3\",\"type\":\"source\",\"source\":{\"event\":\"socket_write\"}}]", "((((s0.bytes + s1.bytes) + s2.bytes) + s3.bytes) / interval_s)"),
        Arguments.of("io_avg_size", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"file_read\"}},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"file_write\"}},{\"id\":\"s2\",\"type\":\"source\",\"source\":{\"event\":\"socket_read\"}},{\"id\":\"s3\",\"type\":\"source\",\"source\":{\"event\":\"socket_write\"}}]", "(((((s0.bytes + s1.bytes) + s2.bytes) + s3.bytes) / interval_s) / ((((s0.count + s1.count) + s2.count) + s3.count) / interval_s))"),
        Arguments.of("gc_time", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"gc_pause\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("jit_compile_time", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"jit_compile\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("class_load_time", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"class_load\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("class_load_by_loader", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"class_define\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("safepoint_time", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"safepoint\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("interpreted_time", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"cpu_sample\",\"form\":\"interpreted\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        Arguments.of("cpu_inlined", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"cpu_sample\",\"form\":\"inlined\"}}]", "((s0.nanos * 1.0E-9) / interval_s)"),
        err("method_call_overhead", "metric 'method_call_overhead' cannot be measured at <> because metric 'calls' is measured by bytecode probes in the focus's methods; at the whole program that would be every method of the target, so refine the focus to a /Code package, class or method"),
        err("object_creation_overhead", "metric 'object_creation_overhead' cannot be measured at <> because metric 'obj_create' is measured by bytecode probes in the focus's methods; at the whole program that would be every method of the target, so refine the focus to a /Code package, class or method"),
        Arguments.of("object_creation_sampled", "[{\"id\":\"s0\",\"type\":\"source\",\"source\":{\"event\":\"alloc_sample\"}},{\"id\":\"s1\",\"type\":\"source\",\"source\":{\"event\":\"gc_pause\"}}]", "((((s0.bytes / interval_s) / calibration.allocationBytes) * calibration.allocationNanos_s) + (((s1.nanos * 1.0E-9) / interval_s) * ((s0.bytes / interval_s) / (s0.bytes / interval_s))))"));
  }
}
