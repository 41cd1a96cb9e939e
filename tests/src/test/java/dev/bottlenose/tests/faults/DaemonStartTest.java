package dev.bottlenose.tests.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.Membership;
import dev.bottlenose.bus.protocol.DaemonEvents.Announcement;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.HotMethodWorkload;
import dev.bottlenose.web.cluster.Daemons;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A command starts its daemon before it has joined the cluster ({@code daemon --held-by -}): the daemon attaches
 * at once, joins when told the member that holds it, and stops when that member lets go; when the command ends
 * before telling it, the daemon stops without joining and leaves the target as it was.
 */
class DaemonStartTest {

  @Test
  void aDaemonStartedBeforeItsCommandJoinedJoinsWhenToldAndIsHeldByThatMember() throws Exception {
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class)) {
      Daemons.Spawned started = Daemons.prestart(DaemonProcess.daemonJar(), target.pid(), bus.secret());
      Daemons daemons = new Daemons(bus.vertx(), DaemonProcess.daemonJar(), bus.secret());
      daemons.adopt(started);
      Announcement daemon = daemons.forPid(target.pid()).toCompletionStage().toCompletableFuture().get(90, TimeUnit.SECONDS);

      assertThat(daemon.pid()).isEqualTo(target.pid());
      JsonObject status = bus.request(Addresses.status(daemon.daemonId()), new JsonObject());
      assertThat(status.getJsonArray("holders").getList()).containsExactly(Membership.localNode(bus.vertx()));
      daemons.close();
      assertThat(started.process().waitFor(30, TimeUnit.SECONDS)).as("the daemon stopped once let go").isTrue();
      assertThat(target.isAlive()).isTrue();
    }
  }

  @Test
  void aDaemonWhoseCommandEndsBeforeItJoinedStopsAndLeavesNothingInTheTarget() throws Exception {
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class)) {
      Daemons.Spawned started = Daemons.prestart(DaemonProcess.daemonJar(), target.pid(), bus.secret());
      started.process().getOutputStream().close();

      assertThat(started.process().waitFor(60, TimeUnit.SECONDS)).as("the daemon stopped").isTrue();
      assertThat(started.process().exitValue()).isNotZero();
      assertThat(Files.readString(started.log())).contains("ended before it joined the cluster");
      try (DaemonProcess fresh = DaemonProcess.attach(target.pid(), bus.secret())) {
        bus.awaitRunning(fresh);
        JsonObject ledger = bus.request(Addresses.ledger(fresh.id()), new JsonObject());
        assertThat(ledger.getJsonArray("entries")).isEmpty();
        assertThat(ledger.getJsonArray("sources")).isEmpty();
      }
      assertThat(target.isAlive()).isTrue();
    }
  }
}
