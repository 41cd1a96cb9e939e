package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.CountingWorkload;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Bad requests to a real daemon over the event bus each get a clear error that names what was wrong,
 * and leave the target unharmed; a target that exits mid-session leaves its data readable.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputTest {
  private static final String CLASS_PATH = "/Code/dev.bottlenose.tests.workloads/CountingWorkload";

  private Bus bus;

  @BeforeAll
  void joinCluster() throws Exception {
    bus = Bus.join();
  }

  @AfterAll
  void leaveCluster() throws Exception {
    bus.close();
  }

  @Test
  void badRequestsAreRefusedClearlyAndTheTargetKeepsRunning() throws Exception {
    try (TargetJvm target = TargetJvm.start(Jdk.JDK17, CountingWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "200ms")) {
      String id = daemon.id();
      bus.awaitRunning(daemon);
      long before = run(target);

      assertRefused(id, "/Code/dev.bottlenose.tests.workloads/CountingWorkload/step(I", "call_count", 400, "descriptor");
      assertRefused(id, "/Cod/x", "call_count", 400, "/Code");
      assertRefused(id, CLASS_PATH + "/noSuchMethod()V", "call_count", 404, "noSuchMethod");
      assertRefused(id, "/Code/com.nowhere/Missing/m()V", "call_count", 404, "com.nowhere.Missing");
      assertRefused(id, "/Code/dev.bottlenose.tests.workloads/CountingWorkload$Shape/area()D", "wall_inclusive", 400, "abstract");
      assertRefused(id, CLASS_PATH + "/nativeClock()J", "call_count", 400, "native");
      assertRefused(id, CLASS_PATH + "/step(I)J", "no_such_kind", 400, "no_such_kind");
      assertThatThrownBy(() -> bus.request(Addresses.resources(id), new JsonObject().put("path", "/Code/no.such.pkg")))
          .isInstanceOfSatisfying(ReplyException.class, e -> assertThat(e.getMessage()).contains("/Code/no.such.pkg"));

      assertThat(bus.request(Addresses.ledger(id), new JsonObject()).getJsonArray("entries")).isEmpty();
      assertThat(run(target)).isEqualTo(before);
    }
  }

  @Test
  void aTargetThatExitsMidSessionLeavesItsDataReadable() throws Exception {
    try (TargetJvm target = TargetJvm.start(Jdk.JDK17, CountingWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "200ms", "--linger", "60s")) {
      String id = daemon.id();
      bus.awaitRunning(daemon);
      long probeId = bus.request(Addresses.enable(id), new JsonObject()
          .put("focus", CLASS_PATH + "/step(I)J").put("kind", "call_count")).getLong("probeId");
      run(target);
      await().atMost(Duration.ofSeconds(10)).until(() -> countOf(id, probeId) >= 2000);

      target.send("exit");
      await("exit reported").atMost(Duration.ofSeconds(20)).until(
          () -> "TARGET_EXITED".equals(bus.request(Addresses.status(id), new JsonObject()).getString("state")));
      assertThat(countOf(id, probeId)).isEqualTo(2000);
      assertThatThrownBy(() -> bus.request(Addresses.enable(id), new JsonObject()
          .put("focus", CLASS_PATH + "/step(I)J").put("kind", "call_count")))
          .isInstanceOfSatisfying(ReplyException.class, e -> assertThat(e.failureCode()).isEqualTo(410));
    }
  }

  private long countOf(String id, long probeId) throws Exception {
    JsonObject value = bus.latestProbeValue(id, probeId);
    return value == null ? -1 : value.getLong("count");
  }

  private void assertRefused(String id, String focus, String kind, int code, String named) {
    assertThatThrownBy(() -> bus.request(Addresses.enable(id), new JsonObject().put("focus", focus).put("kind", kind)))
        .as("enable %s on %s", kind, focus)
        .isInstanceOfSatisfying(ReplyException.class, e -> {
          assertThat(e.failureCode()).as(e.getMessage()).isEqualTo(code);
          assertThat(e.getMessage()).containsIgnoringCase(named);
        });
  }

  private static long run(TargetJvm target) throws Exception {
    target.send("run 2000");
    return TargetJvm.field(target.awaitLine("done", Duration.ofSeconds(60)), "result");
  }
}
