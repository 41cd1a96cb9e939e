package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.CountingWorkload;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The foundation end to end: a workload that counts and times its own calls runs on JDK 17 and on
 * JDK 25; a real daemon process attaches to it and joins a real Hazelcast-clustered event bus; this
 * test, another member of that cluster, asks for the workload's classes, enables probes, compares what
 * they report with what the workload says, removes them, and checks the class bytes and the
 * workload's results are exactly as before.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CountingAccuracyTest {
  private static final String PACKAGE = "/Code/dev.bottlenose.tests.workloads";
  private static final String CLASS = CountingWorkload.class.getName();
  private static final String STEP = PACKAGE + "/CountingWorkload/step(I)J";
  private static final int STEPS = 20_000;

  private Bus bus;

  @BeforeAll
  void joinCluster() throws Exception {
    bus = Bus.join();
  }

  @AfterAll
  void leaveCluster() throws Exception {
    bus.close();
  }

  @ParameterizedTest
  @EnumSource(Jdk.class)
  void probesAgreeWithTheWorkloadsOwnCountsAndTimes(Jdk jdk) throws Exception {
    try (TargetJvm target = TargetJvm.start(jdk, CountingWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "200ms")) {
      String id = daemon.id();
      bus.awaitRunning(daemon);
      long resultBefore = run(target).result;

      JsonArray classes = bus.request(Addresses.resources(id), new JsonObject().put("path", PACKAGE).put("depth", 2))
          .getJsonArray("resources");
      assertThat(paths(classes)).contains(PACKAGE + "/CountingWorkload", STEP);
      JsonObject bytesBefore = classBytes(id);

      long countProbe = enable(id, "call_count");
      long timerProbe = enable(id, "wall_inclusive");
      Run measured = run(target);
      assertThat(measured.calls).isEqualTo(STEPS);

      JsonObject counter = awaitProbeCount(id, countProbe, measured.calls);
      JsonObject timer = awaitProbeCount(id, timerProbe, measured.calls);
      assertThat(counter.getLong("count")).isCloseTo(measured.calls, within(measured.calls / 50));
      assertThat(timer.getLong("count")).isCloseTo(measured.calls, within(measured.calls / 50));
      assertThat(timer.getLong("nanos")).isCloseTo(measured.nanos, within(measured.nanos / 10));

      JsonObject removedCounter = disable(id, countProbe);
      JsonObject removedTimer = disable(id, timerProbe);
      assertThat(removedCounter.getBoolean("classRestored")).isFalse();
      assertThat(removedTimer.getBoolean("classRestored")).isTrue();
      assertThat(classBytes(id)).isEqualTo(bytesBefore);
      assertThat(bus.request(Addresses.ledger(id), new JsonObject()).getJsonArray("entries")).isEmpty();

      assertThat(measured.result).isEqualTo(resultBefore);
      assertThat(run(target).result).isEqualTo(resultBefore);
      assertThat(target.isAlive()).isTrue();
    }
  }

  private long enable(String id, String kind) throws Exception {
    JsonObject reply = bus.request(Addresses.enable(id),
        new JsonObject().put("focus", STEP).put("kind", kind).put("requester", "e2e"));
    assertThat(reply.getString("method")).isEqualTo(STEP);
    return reply.getLong("probeId");
  }

  private JsonObject disable(String id, long probeId) throws Exception {
    return bus.request(Addresses.disable(id), new JsonObject().put("probeId", probeId));
  }

  private JsonObject classBytes(String id) throws Exception {
    JsonObject reply = bus.request(Addresses.classBytes(id), new JsonObject().put("className", CLASS));
    assertThat(reply.getLong("length")).isPositive();
    return reply;
  }

  /** Waits for a sample in which the probe's cumulative count has reached {@code expected}. */
  private JsonObject awaitProbeCount(String id, long probeId, long expected) {
    AtomicReference<JsonObject> last = new AtomicReference<>();
    await("probe " + probeId + " reaching " + expected).atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> {
          last.set(bus.latestProbeValue(id, probeId));
          return last.get() != null && last.get().getLong("count") >= expected - expected / 50;
        });
    return last.get();
  }

  private static Run run(TargetJvm target) throws Exception {
    target.send("run " + STEPS);
    String done = target.awaitLine("done", Duration.ofSeconds(60));
    return new Run(TargetJvm.field(done, "calls"), TargetJvm.field(done, "nanos"), TargetJvm.field(done, "result"));
  }

  private static java.util.List<String> paths(JsonArray resources) {
    return resources.stream().map(r -> ((JsonObject) r).getString("path")).toList();
  }

  private record Run(long calls, long nanos, long result) {}
}
