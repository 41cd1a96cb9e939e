package dev.bottlenose.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.daemon.session.ActiveMetric;
import dev.bottlenose.daemon.session.BatchOutcome;
import dev.bottlenose.daemon.session.ProbeInfo;
import dev.bottlenose.daemon.session.RemovedProbe;
import dev.bottlenose.daemon.session.ResourceEntry;
import dev.bottlenose.daemon.session.Sample;
import dev.bottlenose.daemon.session.SessionException;
import dev.bottlenose.daemon.session.SessionException.Failure;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Attach to a real JDK 17 target by pid; hierarchies, a live probe, bad input, and the target exiting. */
class SessionIT {
  private static final SessionOptions OPTIONS = SessionOptions.defaults().withInterval(Duration.ofMillis(200));
  private static TargetJvm target;
  private static TargetSession session;

  @BeforeAll
  static void attach() throws Exception {
    target = TargetJvm.start();
    session = TargetSession.attach(target.pid(), OPTIONS, System.err);
  }

  @AfterAll
  static void close() throws Exception {
    session.close();
    target.close();
  }

  static SessionException failure(Runnable r) {
    try {
      r.run();
    } catch (SessionException e) {
      return e;
    }
    throw new AssertionError("expected a SessionException");
  }

  @Test
  void theHelloNamesTheTarget() {
    assertThat(session.pid()).isEqualTo(target.pid());
    assertThat(session.hello().mainClass()).isEqualTo(TargetJvm.MAIN);
    assertThat(session.hello().loadedBy()).isEqualTo("agentmain");
  }

  @Test
  void theTargetsJitLeavesTheToolsOwnCodeToC1AndASecondSessionAddsNoSecondDirective() throws Exception {
    assertThat(session.status()).containsEntry("toolCompilation", "added");
    String directives = jcmd(target.pid(), "Compiler.directives_print");
    assertThat(directives).contains("dev/bottlenose/agent/*.*", "dev/bottlenose/model/*.*",
        "dev/bottlenose/instrumentation/*.*").doesNotContain("dev/bottlenose/probe");
    assertThat(directives.indexOf("dev/bottlenose/instrumentation/Calibration*.*"))
        .as("the calibrations' exemption is matched before the exclusion").isNotNegative()
        .isLessThan(directives.indexOf("dev/bottlenose/model/*.*"));
    try (TargetSession second = TargetSession.attach(target.pid(), OPTIONS, System.err)) {
      assertThat(second.status()).containsEntry("toolCompilation", "already there");
    }
    assertThat(jcmd(target.pid(), "Compiler.directives_print").split("dev/bottlenose/agent/\\*", -1)).hasSize(2);
  }

  /** What the JDK's own {@code jcmd} prints for {@code command} on {@code pid}. */
  private static String jcmd(long pid, String command) throws Exception {
    Process p = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(pid), command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as("jcmd %s: %s", command, out).isZero();
    return out;
  }

  @Test
  void readsHierarchiesAndTheWorkloadsMethods() {
    assertThat(session.resources("/", 1)).extracting(r -> r.path().toString()).contains("/Code", "/Threads", "/VM");
    List<ResourceEntry> code = session.resources("/Code/itworkload", -1);
    assertThat(code).extracting(r -> r.path().toString()).contains("/Code/itworkload/ItWorkload", TargetJvm.STEP);
  }

  @Test
  void measuresAMethodLiveAndRestoresTheClass() {
    ProbeInfo probe = session.enable(TargetJvm.STEP, "call_count", null, "it");
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      Sample s = session.values().latest();
      return s != null && s.probe(probe.probeId()) != null && s.probe(probe.probeId()).countDelta() > 0;
    });
    Sample s = session.values().latest();
    assertThat(s.probe(probe.probeId()).countPerSecond()).isPositive();
    assertThat(s.cost().processCpuNanos()).isPositive();
    assertThat(s.cost().fraction()).isBetween(0.0, 1.0);
    assertThat(session.ledger()).anySatisfy(e -> assertThat(e).containsEntry("askedBy", "it"));
    RemovedProbe removed = session.disable(probe.probeId());
    assertThat(removed.classRestored()).isTrue();
    assertThat(removed.className()).isEqualTo(TargetJvm.MAIN);
    assertThat(session.ledger()).isEmpty();
  }

  @Test
  void aClassFocusGoesInWithOneBatchAndOutWithAnother() {
    ActiveMetric m = session.enableMetric("calls", "</Code/itworkload/ItWorkload>", "it");
    assertThat(m.probeCount()).isGreaterThan(2);
    assertThat(session.probes()).hasSize(m.probeCount());
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      Sample s = session.values().latest();
      return s != null && s.metric(m.metricId()) != null && s.metric(m.metricId()).hasValue()
          && s.metric(m.metricId()).value() > 0;
    });
    assertThat(session.disableMetric(m.metricId())).containsEntry("probesRemoved", m.probeCount())
        .containsEntry("classesRestored", 1).containsEntry("failures", List.of());
    assertThat(session.ledger()).isEmpty();
  }

  @Test
  void aBatchWithBadItemsInsertsTheRestAndRemovesThemTogether() {
    List<BatchOutcome<ProbeInfo>> inserted = session.enableAll(List.of(TargetJvm.STEP,
        "/Code/itworkload/ItWorkload/fly()V", "/Code/itworkload/ItWorkload$Shape/area()D", TargetJvm.BATCH),
        "wall_inclusive", "it");
    assertThat(inserted).extracting(BatchOutcome::ok).containsExactly(true, false, false, true);
    assertThat(inserted.get(1).failure().failure()).isEqualTo(Failure.NOT_FOUND);
    assertThat(inserted.get(1).failure().getMessage()).contains("/Code/itworkload/ItWorkload/fly()V");
    assertThat(inserted.get(2).failure().failure()).isEqualTo(Failure.BAD_INPUT);
    assertThat(inserted.get(2).failure().getMessage()).containsIgnoringCase("abstract");
    assertThat(session.ledger()).hasSize(2);

    List<BatchOutcome<RemovedProbe>> removed = session.disableAll(List.of(inserted.get(0).value().probeId(),
        inserted.get(3).value().probeId()));
    assertThat(removed).allSatisfy(o -> assertThat(o.ok()).isTrue());
    assertThat(removed).allSatisfy(o -> assertThat(o.value().classRestored()).isTrue());
    assertThat(session.ledger()).isEmpty();
    assertThat(target.isAlive()).isTrue();
  }

  @Test
  void countsCallsFromOneMethodToAnother() {
    ProbeInfo probe = session.enable(TargetJvm.BATCH, "call_site", TargetJvm.STEP, "it");
    assertThat(probe.callee()).isEqualTo(TargetJvm.STEP);
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      Sample s = session.values().latest();
      return s != null && s.probe(probe.probeId()) != null && s.probe(probe.probeId()).countDelta() > 0;
    });
    assertThat(session.disable(probe.probeId()).classRestored()).isTrue();
  }

  @Test
  void badProbeRequestsAreClearErrorsAndLeaveTheTargetUnharmed() {
    SessionException malformed = failure(() -> session.enable("/Code/itworkload/ItWorkload/step(I", "call_count", null, "it"));
    assertThat(malformed.failure()).isEqualTo(Failure.BAD_INPUT);
    assertThat(malformed.getMessage()).startsWith("malformed focus:");

    SessionException missing = failure(() -> session.enable("/Code/itworkload/ItWorkload/fly()V", "call_count", null, "it"));
    assertThat(missing.failure()).isEqualTo(Failure.NOT_FOUND);
    assertThat(missing.getMessage()).contains("/Code/itworkload/ItWorkload/fly()V");

    SessionException noClass = failure(() -> session.enable("/Code/itworkload/Nope/run()V", "call_count", null, "it"));
    assertThat(noClass.failure()).isEqualTo(Failure.NOT_FOUND);
    assertThat(noClass.getMessage()).contains("itworkload.Nope");

    SessionException abstractMethod = failure(() -> session.enable(
        "/Code/itworkload/ItWorkload$Shape/area()D", "wall_inclusive", null, "it"));
    assertThat(abstractMethod.failure()).isEqualTo(Failure.BAD_INPUT);
    assertThat(abstractMethod.getMessage()).containsIgnoringCase("abstract");

    SessionException nativeMethod = failure(() -> session.enable(
        "/Code/itworkload/ItWorkload/nativeClock()J", "call_count", null, "it"));
    assertThat(nativeMethod.failure()).isEqualTo(Failure.BAD_INPUT);
    assertThat(nativeMethod.getMessage()).containsIgnoringCase("native");

    assertThat(target.isAlive()).isTrue();
    assertThat(session.ledger()).isEmpty();
    ProbeInfo fine = session.enable(TargetJvm.STEP, "wall_inclusive", null, "it");
    assertThat(session.disable(fine.probeId()).classRestored()).isTrue();
  }

  @Test
  void anUnknownPidIsRefusedByThePreflight() {
    SessionException e = failure(() -> TargetSession.attach(Integer.MAX_VALUE - 3, OPTIONS, System.err));
    assertThat(e.getMessage()).isEqualTo("cannot attach to process " + (Integer.MAX_VALUE - 3) + ": no process with pid "
        + (Integer.MAX_VALUE - 3));
  }

  @Test
  void aTargetThatExitsMidSessionIsReportedAndItsDataKept() throws Exception {
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    try (TargetJvm dying = TargetJvm.start();
        TargetSession s = TargetSession.attach(dying.pid(), OPTIONS,
            new PrintStream(warnings, true, StandardCharsets.UTF_8))) {
      s.resources("/Code/itworkload", -1);
      ProbeInfo probe = s.enable(TargetJvm.STEP, "call_count", null, "it");
      await().atMost(Duration.ofSeconds(10)).until(() -> s.values().history(100).stream()
          .anyMatch(x -> x.probe(probe.probeId()) != null && x.probe(probe.probeId()).countDelta() > 0));
      int samples = s.values().history(1000).size();
      dying.exit();
      await().atMost(Duration.ofSeconds(10)).until(() -> s.state() == TargetSession.State.TARGET_EXITED);
      assertThat(s.endReason()).isEqualTo("target process " + dying.pid() + " exited");
      assertThat(s.values().history(1000).size()).isGreaterThanOrEqualTo(samples);
      assertThat(s.resources("/Code/itworkload", -1)).extracting(r -> r.path().toString()).contains(TargetJvm.STEP);
      assertThat(failure(() -> s.enable(TargetJvm.STEP, "call_count", null, "it")).failure())
          .isEqualTo(Failure.TARGET_EXITED);
      assertThat(s.status()).containsEntry("state", "TARGET_EXITED");
    }
    assertThat(warnings.toString(StandardCharsets.UTF_8).lines()).as("no warning; only the attach's advice")
        .allMatch(l -> l.startsWith("bottlenose: process ") && l.contains(" methods compiled; ") && l.contains(" -javaagent:"));
  }
}
