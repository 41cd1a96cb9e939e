package dev.bottlenose.consultant.bus;

import dev.bottlenose.bus.Addresses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.bottlenose.consultant.CostPrediction;
import dev.bottlenose.consultant.MetricRequest;
import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The port's one-time cost of a probe metric, from a daemon peer on a real (local) event bus. */
class OneTimeCostPredictionTest {
  private final Vertx vertx = Vertx.vertx();
  private final AtomicInteger jitAsked = new AtomicInteger();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aProbeMetricCostsTwiceItsFocusCompileTimeOnceAndASourceMetricNothing() throws Exception {
    daemon("d");
    EventBusMeasurementPort port = new EventBusMeasurementPort(vertx, List.of("d"), "test");
    MetricRequest calls = new MetricRequest("method_call_overhead",
        Focus.of(ResourcePath.parse("/Code/com.acme/Numbers")), ConstraintMode.INCLUSIVE);
    MetricRequest samples = new MetricRequest("cpu_inclusive",
        Focus.of(ResourcePath.parse("/Code/com.acme/Numbers")), ConstraintMode.INCLUSIVE);

    CostPrediction p = until(port, calls);

    // 30 ms + 10 ms of compiling in the class, in and out, on a target using 2 cores (no call graph to tell
    // how many stacks go through it)
    assertThat(p.once()).isCloseTo(2 * 0.040 / 2, within(1e-9));
    assertThat(p.cost()).isPositive();
    assertThat(until(port, samples).once()).isZero();
    assertThat(jitAsked.get()).as("asked once, kept for a while").isEqualTo(1);
  }

  @Test
  void aFocusCostsAlsoWhatItsCallersWithinTheInliningDepthTookToCompile() throws Exception {
    daemon("d");
    callGraph("d", List.of("/Code/com.acme/Numbers/gcd(JJ)J"), List.of("/Code/com.acme/Other/run()V"),
        List.of("/Code/org.cold/Setup/init()V"));
    EventBusMeasurementPort port = new EventBusMeasurementPort(vertx, List.of("d"), "test");
    MetricRequest calls = new MetricRequest("method_call_overhead",
        Focus.of(ResourcePath.parse("/Code/com.acme/Numbers")), ConstraintMode.INCLUSIVE);

    CostPrediction p = until(port, calls);

    // its own 40 ms and its caller's 500 ms, in and out, on 2 cores; what it calls (org.cold's 900 ms) is in the
    // compiled code of those, not thrown away a second time
    assertThat(p.once()).isCloseTo(2 * 0.540 / 2, within(1e-9));
  }

  @Test
  void aCallerNotCompiledSinceTheAttachMayBeAnOlderLoopThatTakesInTheCalleesToo() throws Exception {
    daemon("d");
    callGraph("d", List.of("/Code/com.acme/Numbers/gcd(JJ)J"), List.of("/Code/com.acme/Main/loop()V"),
        List.of("/Code/org.cold/Setup/init()V"));
    EventBusMeasurementPort port = new EventBusMeasurementPort(vertx, List.of("d"), "test");
    MetricRequest calls = new MetricRequest("method_call_overhead",
        Focus.of(ResourcePath.parse("/Code/com.acme/Numbers")), ConstraintMode.INCLUSIVE);

    CostPrediction p = until(port, calls);

    // Main.loop was sampled but not compiled since the attach: its 40 ms and its callees' 900 ms, in and out
    assertThat(p.once()).isCloseTo(2 * 0.940 / 2, within(1e-9));
  }

  /** A daemon's call graph with the focus's methods on top, its callers and its callees, on half the stacks. */
  private void callGraph(String id, List<String> hot, List<String> callers, List<String> callees) {
    vertx.eventBus().<JsonObject>consumer(Addresses.callGraph(id), m -> m.reply(new JsonObject()
        .put("path", m.body().getString("path")).put("samples", 400L).put("total", 200L)
        .put("hot", new JsonArray(hot.stream().map(h -> new JsonObject().put("method", h).put("self", 50L)
            .put("total", 200L)).toList()))
        .put("callers", children(callers, "caller")).put("callees", children(callees, "callee"))));
  }

  private static JsonArray children(List<String> paths, String relation) {
    return new JsonArray(paths.stream().map(p -> new JsonObject().put("path", p).put("samples", 200L)
        .put("relation", relation)).toList());
  }

  private CostPrediction until(EventBusMeasurementPort port, MetricRequest request) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (true) {
      CostPrediction p = port.predict(request);
      if (!p.isPending()) {
        assertThat(p.failure()).isNull();
        return p;
      }
      assertThat(System.nanoTime()).as("still pending after 5 s").isLessThan(end);
      vertx.eventBus().publish(Addresses.values("d"), new JsonObject().put("atMillis", 1_000L)
          .put("intervalNanos", 1_000_000_000L).put("metrics", new JsonArray())
          .put("cost", new JsonObject().put("processCpuNanos", 2_000_000_000L).put("agentCpuNanos", 1_000_000L)));
      Thread.sleep(20);
    }
  }

  private void daemon(String id) {
    vertx.eventBus().<JsonObject>consumer(Addresses.status(id), m -> m.reply(new JsonObject().put("state", "RUNNING").put("pid", 11L)
        .put("calibration", new JsonObject().put("virtualCallNanos", 3.0).put("allocationNanos", 20.0)
            .put("samplePeriodNanos", 20_000_000.0))));
    vertx.eventBus().<JsonObject>consumer(Addresses.resources(id), m -> {
      assertThat(m.body().getString("path")).isEqualTo("/VM/JIT");
      jitAsked.incrementAndGet();
      m.reply(new JsonObject().put("resources", new JsonArray()
          .add(compilation("c2", "com.acme.Numbers.gcd(JJ)J", 2, 60_000_000))
          .add(compilation("c1", "com.acme.Numbers.mix(J)J", 1, 10_000_000))
          .add(compilation("c2", "com.acme.Other.run()V", 1, 500_000_000))
          .add(compilation("c2", "org.cold.Setup.init()V", 1, 900_000_000))));
    });
  }

  private static JsonObject compilation(String tier, String method, long count, long nanos) {
    return new JsonObject().put("path", ResourcePath.parse("/VM/JIT/" + tier).child(method).toString())
        .put("kind", "compilation")
        .put("attributes", new JsonObject().put("count", String.valueOf(count)).put("nanos", String.valueOf(nanos)));
  }
}
