package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.Metrics;
import dev.bottlenose.tests.harness.Searches;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.LoopWorkload;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A class whose method has been running since before the attach (a loop that never returns) is left alone:
 * HotSpot does not compile a replaced method again, so retransforming it would leave the loop interpreted for
 * the rest of the run, five to ten times slower, probes removed or not. A metric over its package measures the
 * other classes and names the one it left out and why; a probe into it is refused (409) with the reason.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LongRunningLoopTest {
  private static final String PACKAGE = "/Code/dev.bottlenose.tests.workloads";
  private static final String LOOP = PACKAGE + "/LoopWorkload/main([Ljava/lang/String;)V";

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
  void aClassRunningALoopThatNeverReturnsIsLeftOutAndSaysWhy() throws Exception {
    try (TargetJvm target = TargetJvm.start(Jdk.JDK17, LoopWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "200ms")) {
      bus.awaitRunning(daemon);
      Metrics metrics = new Metrics(bus, daemon.id());

      JsonObject enabled = metrics.enable("obj_create", "<" + PACKAGE + ">");
      JsonObject busy = enabled.getJsonObject("classesBusy");
      assertThat(busy.fieldNames()).as("classes left out: %s", enabled).containsExactly(LoopWorkload.class.getName());
      assertThat(busy.getString(LoopWorkload.class.getName()))
          .startsWith(LOOP + " has been on the stack of thread 'main'");
      assertThat(enabled.getInteger("probes")).as("the cell's methods are measured").isPositive();
      metrics.awaitValues(enabled.getLong("metricId"));
      metrics.disable(enabled.getLong("metricId"));

      assertThatThrownBy(() -> bus.request(Addresses.enable(daemon.id()),
          new JsonObject().put("focus", LOOP).put("kind", "call_count").put("requester", "e2e")))
          .isInstanceOfSatisfying(ReplyException.class, e -> {
            assertThat(e.failureCode()).as(e.getMessage()).isEqualTo(409);
            assertThat(e.getMessage()).startsWith("not inserting a call_count probe into " + LOOP + " now: ")
                .contains("changing its class now would leave that activation running interpreted until it returns");
          });
      Searches.assertNothingLeft(bus, daemon);
    }
  }
}
