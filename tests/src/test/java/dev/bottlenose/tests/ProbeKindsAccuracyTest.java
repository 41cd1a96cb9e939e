package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.tests.harness.AttachedTarget;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.KnownAnswerWorkload;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The monitor and allocation probes against a workload that knows its own answer: how long a thread
 * waited to enter a contended monitor, and how many objects and arrays a method created.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProbeKindsAccuracyTest {
  private static final String CLASS = "/Code/dev.bottlenose.tests.workloads/KnownAnswerWorkload";

  private AttachedTarget attached;
  private Bus bus;
  private DaemonProcess daemon;

  @BeforeAll
  void start() throws Exception {
    attached = AttachedTarget.start(Jdk.JDK17, KnownAnswerWorkload.class);
    bus = attached.bus;
    daemon = attached.daemon;
  }

  @AfterAll
  void stop() throws Exception {
    attached.close();
  }

  @Test
  void monitorProbeSeesTheKnownEntriesAndBlockedTime() throws Exception {
    long probe = enable(CLASS + "/contend(J[J)J", "monitor");
    String done = attached.run("monitor 1500");
    long entries = TargetJvm.field(done, "entries");
    long blocked = TargetJvm.field(done, "blockedNanos");
    JsonObject value = awaitCount(probe, entries);
    disable(probe);

    assertThat(value.getLong("count")).isEqualTo(entries);
    assertThat(value.getLong("nanos")).isCloseTo(blocked, within(blocked / 10));
    assertThat(blocked).as("real contention to compare against (how much depends on the machine's load)")
        .isGreaterThan(50_000_000L);
  }

  @Test
  void allocationProbeCountsEveryObjectAndArrayWithTheirSizes() throws Exception {
    long probe = enable(CLASS + "/churn([J)V", "allocation");
    String done = attached.run("alloc 800");
    long points = TargetJvm.field(done, "points");
    long arrays = TargetJvm.field(done, "arrays");
    long calls = points / 100;
    long expected = points + arrays + calls;
    JsonObject value = awaitCount(probe, expected);
    disable(probe);

    assertThat(value.getLong("count")).as("points, long[8] arrays and one ArrayList per call").isEqualTo(expected);
    long perCall = 100 * (32 + 80) + 24;
    assertThat(value.getLong("bytes")).as("shallow sizes with compressed oops")
        .isCloseTo(calls * perCall, within(calls * perCall / 10));
  }

  private long enable(String method, String kind) throws Exception {
    return bus.request(Addresses.enable(daemon.id()),
        new JsonObject().put("focus", method).put("kind", kind).put("requester", "e2e")).getLong("probeId");
  }

  private void disable(long probeId) throws Exception {
    JsonObject removed = bus.request(Addresses.disable(daemon.id()), new JsonObject().put("probeId", probeId));
    assertThat(removed.getBoolean("classRestored")).isTrue();
  }

  private JsonObject awaitCount(long probeId, long expected) {
    AtomicReference<JsonObject> last = new AtomicReference<>();
    await("probe " + probeId + " reaching " + expected).atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> {
          last.set(bus.latestProbeValue(daemon.id(), probeId));
          return last.get() != null && last.get().getLong("count") >= expected;
        });
    return last.get();
  }
}
