package dev.bottlenose.daemon.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.daemon.channel.PeerAgent;
import dev.bottlenose.daemon.session.SessionException.Failure;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The session's behaviour against the test peer agent; the "target" is a real `sleep` process. */
class TargetSessionTest {
  private PeerSession fixture;
  private Process target;
  private PeerAgent peer;
  private TargetSession session;

  @BeforeEach
  void open() throws IOException {
    fixture = PeerSession.open();
    target = fixture.target;
    peer = fixture.peer;
    session = fixture.session;
  }

  @AfterEach
  void close() throws InterruptedException {
    fixture.close();
  }

  private static SessionException failure(Runnable r) {
    return PeerSession.failure(r);
  }

  @Test
  void readsHierarchiesAndSubtrees() {
    assertThat(session.resources("/Code/com.acme", -1)).extracting(r -> r.path().toString())
        .containsExactly("/Code/com.acme", "/Code/com.acme/Sim", PeerAgent.RUN, PeerAgent.STEP);
    assertThat(session.resources("/Code/com.acme/Sim", 1).get(0).kind()).isEqualTo("class");
  }

  @Test
  void aTargetThatIsNotAJvmIsNotSignalledForTheCompilerDirective() {
    assertThat(session.status()).containsEntry("toolCompilation", "not added: process " + target.pid() + " is not a JVM");
    assertThat(target.isAlive()).as("attaching would have sent it SIGQUIT").isTrue();
  }

  @Test
  void anUnknownResourceIsNotFoundAndAMalformedPathIsBadInput() {
    assertThat(failure(() -> session.resources("/Threads/nope", 1)).failure()).isEqualTo(Failure.NOT_FOUND);
    SessionException bad = failure(() -> session.resources("/Nowhere/x", 1));
    assertThat(bad.failure()).isEqualTo(Failure.BAD_INPUT);
    assertThat(bad.getMessage()).startsWith("malformed resource path:").contains("/Nowhere/x");
  }

  @Test
  void insertsAProbeAndStreamsItsValuesWithRatesAndCost() {
    ProbeInfo probe = session.enable("</Code/com.acme/Sim/step()V>", "call_count", null, "test");
    assertThat(probe.method()).isEqualTo(PeerAgent.STEP);
    List<Sample> seen = new CopyOnWriteArrayList<>();
    session.values().onSample(seen::add);
    await().atMost(Duration.ofSeconds(5))
        .until(() -> seen.stream().filter(s -> s.probe(probe.probeId()) != null).count() >= 2);
    Sample s = seen.stream().filter(x -> x.probe(probe.probeId()) != null).skip(1).findFirst().orElseThrow();
    assertThat(s.probe(probe.probeId()).countDelta()).isEqualTo(100);
    assertThat(s.probe(probe.probeId()).countPerSecond()).isPositive();
    assertThat(s.cost().fraction()).isCloseTo(11_000 / 100_000_000.0, org.assertj.core.api.Assertions.within(1e-12));
    assertThat(session.values().history(1000)).isNotEmpty();
  }

  @Test
  void removesAProbeAndReportsTheRestoredClass() {
    ProbeInfo probe = session.enable(PeerAgent.STEP, "wall_inclusive", null, "test");
    RemovedProbe removed = session.disable(probe.probeId());
    assertThat(removed.classRestored()).isTrue();
    assertThat(removed.className()).isEqualTo("com.acme.Sim");
    assertThat(session.probes()).isEmpty();
    assertThat(session.ledger()).isEmpty();
  }

  @Test
  void aBatchInsertsEveryGoodMethodInOneRequestAndRemovesThemInAnother() {
    List<BatchOutcome<ProbeInfo>> inserted = session.enableAll(List.of(PeerAgent.STEP, "/Code/com.acme/Sim/fly()V",
        "/Code/com.acme/Sim", PeerAgent.RUN), "call_count", "test");
    assertThat(inserted).extracting(BatchOutcome::ok).containsExactly(true, false, false, true);
    assertThat(inserted.get(1).failure().failure()).isEqualTo(Failure.NOT_FOUND);
    assertThat(inserted.get(1).failure().getMessage()).isEqualTo("inserting a call_count probe into "
        + "/Code/com.acme/Sim/fly()V failed: no method /Code/com.acme/Sim/fly()V in the target");
    assertThat(inserted.get(2).failure().failure()).isEqualTo(Failure.BAD_INPUT);
    assertThat(inserted.get(2).failure().getMessage()).startsWith("focus '/Code/com.acme/Sim' names a class");
    assertThat(peer.ops()).filteredOn(op -> op.startsWith("insert")).containsExactly("insertAll");
    assertThat(session.probes()).extracting(ProbeInfo::method).containsExactlyInAnyOrder(PeerAgent.STEP, PeerAgent.RUN);
    assertThat(peer.probes()).hasSize(2);

    long step = inserted.get(0).value().probeId();
    long run = inserted.get(3).value().probeId();
    List<BatchOutcome<RemovedProbe>> removed = session.disableAll(List.of(step, 99L, run, step));
    assertThat(removed).extracting(BatchOutcome::ok).containsExactly(true, false, true, false);
    assertThat(removed.get(1).failure().getMessage()).startsWith("no probe 99 in this session (its probes: ");
    assertThat(removed.get(3).failure().getMessage()).isEqualTo("probe " + step + " is listed more than once");
    assertThat(removed.get(2).value().classRestored()).isTrue();
    assertThat(removed.get(0).value().method()).isEqualTo(PeerAgent.STEP);
    assertThat(peer.ops()).filteredOn(op -> op.startsWith("remove")).containsExactly("removeMany");
    assertThat(session.probes()).isEmpty();
    assertThat(peer.probes()).isEmpty();
    assertThat(failure(() -> session.enableAll(List.of(PeerAgent.STEP), "cycles", "t")).failure())
        .isEqualTo(Failure.BAD_INPUT);
    assertThat(peer.probes()).isEmpty();
  }

  @Test
  void theLedgerNamesWhoAsked() {
    session.enable(PeerAgent.RUN, "call_count", null, "consultant");
    assertThat(session.ledger()).singleElement().satisfies(e -> {
      assertThat(e).containsEntry("method", PeerAgent.RUN).containsEntry("askedBy", "consultant");
      assertThat(e).containsEntry("requester", "peer-session");
    });
  }

  @Test
  void badProbeRequestsAreClearErrorsAndChangeNothing() {
    assertThat(failure(() -> session.enable(PeerAgent.STEP, "cycles", null, "t")).getMessage())
        .startsWith("unknown probe kind 'cycles'; one of call_count, wall_inclusive");
    assertThat(failure(() -> session.enable("</Code/com.acme/Sim/step()V", "call_count", null, "t")).getMessage())
        .startsWith("malformed focus:");
    assertThat(failure(() -> session.enable("/Code/com.acme/Sim", "call_count", null, "t")).getMessage())
        .isEqualTo("focus '/Code/com.acme/Sim' names a class, not a method: give /Code/<package>/<Class>/<method>");
    assertThat(failure(() -> session.enable("/Threads/main", "call_count", null, "t")).getMessage())
        .isEqualTo("focus '/Threads/main' names /Threads/main; probes go into /Code methods");
    assertThat(failure(() -> session.enable("</Code/com.acme/Sim/step()V, /Threads/main>", "call_count", null, "t"))
        .getMessage()).contains("constrains /Threads/main");
    assertThat(failure(() -> session.enable(PeerAgent.STEP, "call_site", null, "t")).getMessage())
        .isEqualTo("a call_site probe needs a callee method (/Code/...)");
    SessionException unknown = failure(() -> session.enable("/Code/com.acme/Sim/fly()V", "call_count", null, "t"));
    assertThat(unknown.failure()).isEqualTo(Failure.NOT_FOUND);
    assertThat(unknown.getMessage()).isEqualTo("inserting a call_count probe into /Code/com.acme/Sim/fly()V failed: "
        + "no method /Code/com.acme/Sim/fly()V in the target");
    assertThat(failure(() -> session.disable(99)).getMessage()).isEqualTo("no probe 99 in this session (its probes: none)");
    assertThat(peer.probes()).isEmpty();
  }

  @Test
  void theIntervalCanBeChangedWithinLimits() {
    session.values().setInterval(Duration.ofMillis(250));
    assertThat(session.values().interval()).isEqualTo(Duration.ofMillis(250));
    assertThat(failure(() -> session.values().setInterval(Duration.ofMillis(10))).getMessage())
        .isEqualTo("interval 10 ms is outside 50 ms .. 1 h");
  }

  @Test
  void hierarchyChangesUpdateTheCacheAndReachListeners() throws IOException {
    List<List<Map<String, Object>>> changes = new CopyOnWriteArrayList<>();
    session.onChanges(changes::add);
    peer.sendEvent(Map.of("event", "changes", "changes", List.of(Map.of("type", "added", "resource",
        Map.of("path", "/Threads/worker-1", "kind", "thread", "attributes", Map.of("state", "RUNNABLE"))))));
    await().atMost(Duration.ofSeconds(5)).until(() -> changes.size() == 1);
    target.destroyForcibly();
    peer.close();
    await().atMost(Duration.ofSeconds(5)).until(() -> session.state() == TargetSession.State.TARGET_EXITED);
    assertThat(session.resources("/Threads/worker-1", 0)).singleElement()
        .satisfies(r -> assertThat(r.attributes()).containsEntry("state", "RUNNABLE"));
  }

  @Test
  void whenTheTargetExitsTheSessionSaysSoAndKeepsItsData() throws Exception {
    session.resources("/", -1);
    session.enable(PeerAgent.STEP, "call_count", null, "t");
    await().atMost(Duration.ofSeconds(5)).until(() -> session.values().history(10).size() >= 2);
    List<String> ends = new CopyOnWriteArrayList<>();
    session.onEnd(ends::add);
    target.destroyForcibly().waitFor();
    peer.close();
    assertThat(session.status()).containsEntry("state", "TARGET_EXITED");
    assertThat(failure(() -> session.ledger()).failure()).isEqualTo(Failure.TARGET_EXITED);
    await().atMost(Duration.ofSeconds(5)).until(() -> ends.size() == 1);
    assertThat(ends.get(0)).isEqualTo("target process " + target.pid() + " exited");
    assertThat(session.state()).isEqualTo(TargetSession.State.TARGET_EXITED);
    int kept = session.values().history(1000).size();
    assertThat(kept).isGreaterThanOrEqualTo(2);
    assertThat(session.resources("/Code/com.acme/Sim", 1)).hasSize(3);
    assertThat(session.resources("/", 1)).extracting(r -> r.path().toString()).contains("/Code", "/Threads");
    assertThat(session.status()).containsEntry("state", "TARGET_EXITED").containsEntry("probes", 1);
    SessionException refused = failure(() -> session.enable(PeerAgent.RUN, "call_count", null, "t"));
    assertThat(refused.failure()).isEqualTo(Failure.TARGET_EXITED);
    assertThat(refused.getMessage()).contains("exited", "kept");
    Thread.sleep(300);
    assertThat(session.values().history(1000)).hasSize(kept);
  }

  @Test
  void anAgentThatHangsUpWhileTheTargetLivesIsADisconnect() {
    peer.close();
    await().atMost(Duration.ofSeconds(5)).until(() -> session.state() == TargetSession.State.DISCONNECTED);
    assertThat(session.endReason()).contains("closed the session");
  }
}
