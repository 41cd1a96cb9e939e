package dev.bottlenose.consultant.bus;

import dev.bottlenose.bus.Addresses;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.MeasurementFailure;
import dev.bottlenose.consultant.MeasurementHandle;
import dev.bottlenose.consultant.MeasurementSink;
import dev.bottlenose.consultant.MetricRequest;
import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The port over two daemons on a real (local) event bus, each daemon a peer that answers enable and disable. */
class SeveralDaemonsPortTest {
  private final Vertx vertx = Vertx.vertx();
  private final List<String> log = new CopyOnWriteArrayList<>();
  private final List<Double> values = new CopyOnWriteArrayList<>();
  private final List<MeasurementFailure> failures = new CopyOnWriteArrayList<>();
  private final List<Double> attached = new CopyOnWriteArrayList<>();
  private final List<Double> side = new CopyOnWriteArrayList<>();
  private final List<Double> costs = new CopyOnWriteArrayList<>();
  private final MeasurementSink sink = new MeasurementSink() {
    @Override
    public void value(MeasurementHandle handle, long atMillis, double value, double observedCost) {
      values.add(value);
      costs.add(observedCost);
    }

    @Override
    public void failed(MeasurementHandle handle, MeasurementFailure failure) {
      failures.add(failure);
    }

    @Override
    public void sideCost(long atMillis, double fraction) {
      side.add(fraction);
    }

    @Override
    public void attached(long atMillis, double fraction) {
      attached.add(fraction);
    }
  };

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aFocusNamingNoProcessIsMeasuredOnEveryDaemonAndSummedAndReleasedOnEvery() throws Exception {
    daemon("a", 11);
    daemon("b", 22);
    EventBusMeasurementPort port = new EventBusMeasurementPort(vertx, List.of("a", "b"), "test");
    MeasurementHandle whole = port.request(request(Focus.WHOLE_PROGRAM), 0.01, sink);
    until(() -> log.size() == 2);
    assertThat(log).containsExactlyInAnyOrder("a enable <>", "b enable <>");

    sample("a", 11, 1.5);
    sample("b", 22, 0.25);
    until(() -> !values.isEmpty());
    assertThat(values).containsExactly(1.75);

    port.release(whole);
    until(() -> log.size() == 4);
    assertThat(log).contains("a disable 11", "b disable 22");
    assertThat(port.activeCount()).isZero();
    assertThat(failures).isEmpty();
  }

  @Test
  void whatBeingAttachedCostsAtRestIsTheLargestOfTheTargetsShares() throws Exception {
    daemon("a", 11);
    daemon("b", 22);
    EventBusMeasurementPort port = new EventBusMeasurementPort(vertx, List.of("a", "b"), "test");
    port.release(port.request(request(Focus.WHOLE_PROGRAM), 0.01, sink));
    until(() -> log.size() == 4);

    // nothing measured: a's agent and JFR spend 4 ms a second of its 2 cores, b's 10 ms of its half core
    idleSample("a", 4_000_000, 2_000_000_000);
    idleSample("b", 10_000_000, 500_000_000);

    until(() -> attached.size() == 2);
    assertThat(attached.get(0)).isCloseTo(0.002, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(attached.get(1)).as("b's 10 ms against at least one core").isCloseTo(0.01, org.assertj.core.data.Offset.offset(1e-12));
  }

  @Test
  void theAgentsCpuJustAfterAStartIsOneTimeCostOnlyForAMetricThatInsertedProbes() throws Exception {
    daemon("a", 11, 0);
    daemon("b", 22, 3);
    EventBusMeasurementPort watching = new EventBusMeasurementPort(vertx, List.of("a"), "test");
    EventBusMeasurementPort probing = new EventBusMeasurementPort(vertx, List.of("b"), "test");
    watching.request(request(Focus.WHOLE_PROGRAM), 0.01, sink);
    until(() -> log.contains("a enable <>"));
    // the agent takes 200 ms of its target's 2 cores in the metric's first second (no rest seen before)
    sample("a", 11, 0.5, 200_000_000, 2_000_000_000);
    until(() -> costs.size() == 1);
    assertThat(side).as("a metric that only watches events changed no class: nothing is one-time cost")
        .isNotEmpty().allMatch(f -> f == 0);
    assertThat(costs.get(0)).as("the agent's CPU is the metric's running cost")
        .isCloseTo(0.1, org.assertj.core.data.Offset.offset(1e-9));

    side.clear();
    probing.request(request(Focus.WHOLE_PROGRAM), 0.01, sink);
    until(() -> log.contains("b enable <>"));
    sample("b", 22, 0.5, 200_000_000, 2_000_000_000);
    until(() -> costs.size() == 2);
    assertThat(side).as("a metric that inserted probes: its first seconds' agent CPU is the retransformation's")
        .anySatisfy(f -> assertThat(f).isCloseTo(0.1, org.assertj.core.data.Offset.offset(1e-9)));
    assertThat(costs.get(1)).isZero();
  }

  @Test
  void aFocusNamingAProcessNoDaemonMeasuresFailsAsAnUnknownFocus() throws Exception {
    daemon("a", 11);
    daemon("b", 22);
    EventBusMeasurementPort port = new EventBusMeasurementPort(vertx, List.of("a", "b"), "test");

    port.request(request(Focus.of(ResourcePath.parse("/Process/7"))), 0.01, sink);

    until(() -> !failures.isEmpty());
    assertThat(failures.get(0).kind()).isEqualTo(MeasurementFailure.Kind.FOCUS_UNKNOWN);
    assertThat(failures.get(0).reason()).contains("/Process/7");
    assertThat(log).isEmpty();
  }

  @Test
  void whyATargetIsGoneIsToldBeforeAnyOfItsMeasurementsFails() throws Exception {
    daemon("a", 11);
    EventBusMeasurementPort port = new EventBusMeasurementPort(vertx, List.of("a"), "test");
    List<Integer> failuresWhenTold = new CopyOnWriteArrayList<>();
    port.onTargetGone((daemon, reason) -> failuresWhenTold.add(failures.size()));
    port.request(request(Focus.WHOLE_PROGRAM), 0.01, sink);
    until(() -> log.size() == 1);

    vertx.eventBus().publish(Addresses.exited("a"), new JsonObject().put("daemonId", "a").put("endReason", "the target exited"));

    until(() -> !failures.isEmpty());
    // a search steps on another thread: one that took in the failure first would end "converged", not "target exited"
    assertThat(failuresWhenTold).containsExactly(0);
    assertThat(failures.get(0).kind()).isEqualTo(MeasurementFailure.Kind.TARGET_GONE);
  }

  /** Waits up to 5 s for {@code condition}, which the event loop makes true. */
  private static void until(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited 5 s").isLessThan(end);
      Thread.sleep(10);
    }
  }

  private static MetricRequest request(Focus focus) {
    return new MetricRequest("cpu_inclusive", focus, ConstraintMode.INCLUSIVE);
  }

  private void daemon(String id, long metricId) {
    daemon(id, metricId, 0);
  }

  /** A daemon whose every metric enabled is {@code metricId}, with {@code probes} probes inserted. */
  private void daemon(String id, long metricId, int probes) {
    vertx.eventBus().<JsonObject>consumer(Addresses.metricEnable(id), m -> {
      log.add(id + " enable " + m.body().getString("focus"));
      m.reply(new JsonObject().put("metricId", metricId).put("probes", probes));
    });
    vertx.eventBus().<JsonObject>consumer(Addresses.metricDisable(id), m -> {
      log.add(id + " disable " + m.body().getLong("metricId"));
      m.reply(new JsonObject());
    });
  }

  private void idleSample(String id, long agentCpuNanos, long processCpuNanos) {
    vertx.eventBus().publish(Addresses.values(id), new JsonObject().put("atMillis", 2_000L).put("intervalNanos", 1_000_000_000L)
        .put("metrics", new JsonArray()).put("cost", new JsonObject().put("processCpuNanos", processCpuNanos)
            .put("agentCpuNanos", agentCpuNanos).put("probeNanos", 0L)));
  }

  private void sample(String id, long metricId, double value) {
    vertx.eventBus().publish(Addresses.values(id), new JsonObject().put("atMillis", 2_000L).put("intervalNanos", 1_000_000_000L)
        .put("metrics", new JsonArray().add(new JsonObject().put("metricId", metricId).put("value", value)))
        .put("cost", new JsonObject().put("processCpuNanos", 1_000_000_000L)));
  }

  private void sample(String id, long metricId, double value, long agentCpuNanos, long processCpuNanos) {
    vertx.eventBus().publish(Addresses.values(id), new JsonObject().put("atMillis", 3_000L).put("intervalNanos", 1_000_000_000L)
        .put("metrics", new JsonArray().add(new JsonObject().put("metricId", metricId).put("value", value)))
        .put("cost", new JsonObject().put("processCpuNanos", processCpuNanos).put("agentCpuNanos", agentCpuNanos)
            .put("probeNanos", 0L)));
  }
}
