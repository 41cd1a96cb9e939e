package dev.bottlenose.consultant.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.bottlenose.consultant.MeasurementFailure;
import dev.bottlenose.consultant.MeasurementFailure.Kind;
import dev.bottlenose.consultant.MeasurementHandle;
import dev.bottlenose.consultant.MeasurementSink;
import dev.bottlenose.consultant.MetricRequest;
import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Focus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CombinedTest {
  private static final MetricRequest WHOLE = new MetricRequest("cpu_inclusive", Focus.WHOLE_PROGRAM, ConstraintMode.INCLUSIVE);
  private final MeasurementHandle whole = new MeasurementHandle(1, WHOLE);
  private final MeasurementHandle busy = new MeasurementHandle(2, WHOLE);
  private final MeasurementHandle idle = new MeasurementHandle(3, WHOLE);
  private final Recorder sink = new Recorder();

  @Test
  void valuesOfTwoTargetsAreSummedOverTheDataTimeBothCovered() {
    Combined c = twoParts("sum");

    c.value(busy, 1_000, 2_000, 1.8, 0.01);
    assertThat(sink.values).as("the idle target has not reported yet").isEmpty();
    c.value(idle, 1_200, 1_700, 0.02, 0.004);
    c.value(idle, 1_700, 2_200, 0.04, 0.002);
    c.value(busy, 2_000, 3_000, 1.6, 0.03);

    assertThat(sink.values).hasSize(3);
    assertThat(sink.values.get(0)).containsExactly(new double[] {1_200, 1_700, 1.82, 0.01}, within(1e-9));
    assertThat(sink.values.get(1)).containsExactly(new double[] {1_700, 2_000, 1.84, 0.01}, within(1e-9));
    assertThat(sink.values.get(2)).containsExactly(new double[] {2_000, 2_200, 1.64, 0.03}, within(1e-9));
  }

  @Test
  void theMetricsCombineDecides() {
    Combined c = twoParts("max");
    c.value(busy, 0, 1_000, 0.7, Double.NaN);
    c.value(idle, 0, 1_000, 0.2, Double.NaN);

    assertThat(sink.values).singleElement().satisfies(v -> {
      assertThat(v[2]).isEqualTo(0.7);
      assertThat(v[3]).as("both settling: no observed cost").isNaN();
    });
  }

  @Test
  void aTargetWithoutTheFocusDropsOutAndAnyOtherFailureEndsTheWhole() {
    Combined c = twoParts("sum");
    c.value(busy, 0, 1_000, 1.5, 0.01);
    c.failed(idle, new MeasurementFailure(Kind.FOCUS_UNKNOWN, "no class com.acme.Spin"));

    assertThat(sink.failures).isEmpty();
    assertThat(sink.values).singleElement().satisfies(v -> assertThat(v[2]).isEqualTo(1.5));

    c.failed(busy, new MeasurementFailure(Kind.FOCUS_UNKNOWN, "class unloaded"));
    assertThat(sink.failures).singleElement().satisfies(f -> assertThat(f.reason()).isEqualTo("class unloaded"));
    c.value(busy, 1_000, 2_000, 1.5, 0.01);
    assertThat(sink.values).hasSize(1);
  }

  @Test
  void aTargetGoneFailsTheWholeAtOnce() {
    Combined c = twoParts("sum");
    c.failed(idle, new MeasurementFailure(Kind.TARGET_GONE, "exited"));

    assertThat(sink.failures).extracting(MeasurementFailure::kind).containsExactly(Kind.TARGET_GONE);
  }

  private Combined twoParts(String combine) {
    Combined c = new Combined(whole, sink, combine);
    c.add(busy);
    c.add(idle);
    return c;
  }

  private final class Recorder implements MeasurementSink {
    final List<double[]> values = new ArrayList<>();
    final List<MeasurementFailure> failures = new ArrayList<>();

    @Override
    public void value(MeasurementHandle handle, long atMillis, double value, double observedCost) {
      value(handle, -1, atMillis, value, observedCost);
    }

    @Override
    public void value(MeasurementHandle handle, long fromMillis, long toMillis, double value, double observedCost) {
      assertThat(handle).isEqualTo(whole);
      values.add(new double[] {fromMillis, toMillis, value, observedCost});
    }

    @Override
    public void failed(MeasurementHandle handle, MeasurementFailure failure) {
      assertThat(handle).isEqualTo(whole);
      failures.add(failure);
    }

    @Override
    public void sideCost(long atMillis, double fraction) {
      throw new AssertionError("no side cost expected");
    }
  }
}
