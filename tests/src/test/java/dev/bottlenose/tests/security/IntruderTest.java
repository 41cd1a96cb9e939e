package dev.bottlenose.tests.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.OtherUser;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.HotMethodWorkload;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Another local user (uid 65534) attacks a daemon serving this user's JVM through the event bus: raw frames to
 * every loopback port (the event bus's among them), and a cluster member of its own. Nothing reaches the
 * daemon: the target holds no probe, the forged {@code exited} stops nothing, and the intruder's member finds
 * no daemon at all.
 */
class IntruderTest {
  static final String BURN = "/Code/dev.bottlenose.tests.workloads/HotMethodWorkload/burn()J";

  @Test
  void anotherLocalUserCanNeitherInjectFramesNorJoinTheCluster() throws Exception {
    assumeTrue(OtherUser.available(), "needs root and setpriv to run the intruder as another user");
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret())) {
      bus.awaitRunning(daemon);
      boolean[] forgedExit = new boolean[1];
      bus.vertx().eventBus().consumer(Addresses.exited(daemon.id()), m -> forgedExit[0] = true);

      OtherUser.Result attack = OtherUser.run(Duration.ofSeconds(180), BusIntruder.class, daemon.id(), BURN);
      attack.output().lines().filter(l -> l.startsWith("raw") || l.startsWith("refused") || l.startsWith("SERVED"))
          .forEach(l -> System.out.println("intruder: " + l));

      assertThat(attack.output()).as(attack.output()).contains("raw frames written to", "refused list", "refused enable",
          "done").doesNotContain("SERVED");
      assertThat(attack.output()).as("the intruder reached some listening port").doesNotContain("written to 0 of");
      JsonObject ledger = bus.request(Addresses.ledger(daemon.id()), new JsonObject());
      assertThat(ledger.getJsonArray("entries")).as("probes the intruder put in the target").isEmpty();
      assertThat(forgedExit[0]).as("a forged 'exited' delivered").isFalse();
      assertThat(bus.request(Addresses.status(daemon.id()), new JsonObject()).getString("state")).isEqualTo("RUNNING");
      assertThat(daemon.isAlive()).isTrue();
    }
  }
}
