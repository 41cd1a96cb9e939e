package dev.bottlenose.daemon.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
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

/** Metric–focus pairs on a session against the test peer agent (which counts 100 calls per read per probe). */
class MetricSessionTest {
  private PeerSession fixture;
  private PeerAgent peer;
  private TargetSession session;

  @BeforeEach
  void open() throws IOException {
    fixture = PeerSession.open();
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

  private MetricValue secondValue(long metricId) {
    return secondSample(metricId).metric(metricId);
  }

  /** The second sample with a value of the metric: its value and its interval belong together. */
  private Sample secondSample(long metricId) {
    List<Sample> seen = new CopyOnWriteArrayList<>();
    session.values().onSample(seen::add);
    await().atMost(Duration.ofSeconds(5)).until(() -> seen.stream().filter(s -> s.metric(metricId) != null).count() >= 2);
    Sample s = seen.stream().filter(x -> x.metric(metricId) != null).skip(1).findFirst().orElseThrow();
    assertThat(s.toJson().get("metrics")).asList().isNotEmpty();
    return s;
  }

  @Test
  void callsOnAMethodIsItsProbeCountPerSecond() {
    ActiveMetric m = session.enableMetric("calls", "</Code/com.acme/Sim/step()V>", "test");
    assertThat(m.probeCount()).isEqualTo(1);
    Sample s = secondSample(m.metricId());
    MetricValue v = s.metric(m.metricId());
    double seconds = s.intervalNanos() / 1e9;
    assertThat(v.hasValue()).isTrue();
    assertThat(v.unit()).isEqualTo("count/s");
    assertThat(v.value()).isCloseTo(100 / seconds, within(100 / seconds * 0.5));
    assertThat(v.predictedCost()).isPositive();
    assertThat(session.ledger()).extracting(e -> e.get("askedBy"))
        .containsExactly("test (metric " + m.metricId() + ": calls </Code/com.acme/Sim/step()V>)");
  }

  @Test
  void aPairIsCompiledOnceForItsPlanAndItsMeasurement() {
    Map<String, Object> priced = session.metricPlan("calls", dev.bottlenose.model.Focus.parse("</Code/com.acme/Sim/step()V>"));
    ActiveMetric first = session.enableMetric("calls", "</Code/com.acme/Sim/step()V>", "test");
    ActiveMetric second = session.enableMetric("calls", "</Code/com.acme/Sim/step()V>", "test");
    assertThat(second.plan()).as("one compilation per metric and focus").isSameAs(first.plan());
    assertThat(priced.get("plan")).isEqualTo(first.plan().toJson());
  }

  @Test
  void aClassFocusInstrumentsEveryMethodOfTheClassAndSumsThem() {
    ActiveMetric m = session.enableMetric("calls", "</Code/com.acme/Sim>", "test");
    assertThat(m.probeCount()).isEqualTo(2);
    assertThat(m.toJson().get("methodsInstrumented")).isEqualTo(Map.of("x0", 2));
    assertThat(peer.probes()).hasSize(2);
    assertThat(peer.ops()).filteredOn(op -> op.startsWith("insert")).containsExactly("insertAll");
    Sample s = secondSample(m.metricId());
    assertThat(s.metric(m.metricId()).value() * s.intervalNanos() / 1e9).isCloseTo(200, within(1e-6));
    assertThat(session.disableMetric(m.metricId())).containsEntry("probesRemoved", 2).containsEntry("classesRestored", 1);
    assertThat(peer.ops()).filteredOn(op -> op.startsWith("remove")).containsExactly("removeMany");
    assertThat(peer.probes()).isEmpty();
  }

  @Test
  void aMethodTheAgentRefusesAsBadInputIsSkippedAndAnyOtherRefusalRollsTheBatchBack() {
    peer.refuse(PeerAgent.RUN, "UNMODIFIABLE_CLASS cannot probe com.acme.Sim: planted");
    ActiveMetric m = session.enableMetric("calls", "</Code/com.acme/Sim>", "test");
    assertThat(m.probeCount()).isEqualTo(1);
    assertThat(m.methodsSkipped()).isEqualTo(1);
    assertThat(session.probes()).extracting(ProbeInfo::method).containsExactly(PeerAgent.STEP);
    session.disableMetric(m.metricId());

    peer.refuse(PeerAgent.RUN, "TOO_MANY_PROBES all probe slots are in use");
    SessionException e = failure(() -> session.enableMetric("calls", "</Code/com.acme/Sim>", "test"));
    assertThat(e.failure()).isEqualTo(Failure.REFUSED);
    assertThat(e.getMessage()).isEqualTo("metric 'calls' at </Code/com.acme/Sim>: inserting a call_count probe into "
        + PeerAgent.RUN + " failed: all probe slots are in use");
    assertThat(session.probes()).isEmpty();
    assertThat(peer.probes()).isEmpty();
    assertThat(session.activeMetrics()).isEmpty();
    assertThat(peer.ops()).filteredOn(op -> op.startsWith("insert")).containsExactly("insertAll", "insertAll");
  }

  @Test
  void disablingAMetricRemovesExactlyItsProbesAndSources() {
    ActiveMetric keep = session.enableMetric("calls", "</Code/com.acme/Sim/run()V>", "test");
    ActiveMetric drop = session.enableMetric("method_call_overhead", "</Code/com.acme/Sim/step()V>", "test");
    assertThat(drop.probeCount()).isEqualTo(1);
    assertThat(drop.sourceByItem()).hasSize(2);
    Map<String, Object> removed = session.disableMetric(drop.metricId());
    assertThat(removed).containsEntry("probesRemoved", 1).containsEntry("sourcesRemoved", 2);
    assertThat(session.probes()).extracting(ProbeInfo::probeId).containsExactlyElementsOf(keep.probesByItem().get("p0"));
    assertThat(session.sources()).isEmpty();
    assertThat(session.activeMetrics()).extracting(ActiveMetric::metricId).containsExactly(keep.metricId());
    assertThat(failure(() -> session.disableMetric(drop.metricId())).failure()).isEqualTo(Failure.NOT_FOUND);
  }

  @Test
  void badRequestsNameTheMetricAndTheFocusAndChangeNothing() {
    SessionException unknown = failure(() -> session.enableMetric("nope", "<>", "test"));
    assertThat(unknown.failure()).isEqualTo(Failure.NOT_FOUND);
    assertThat(unknown.getMessage()).startsWith("no metric 'nope'; known metrics: cpu,");
    SessionException focus = failure(() -> session.enableMetric("calls", "</Code/a/B", "test"));
    assertThat(focus.failure()).isEqualTo(Failure.BAD_INPUT);
    assertThat(focus.getMessage()).startsWith("focus '</Code/a/B' for metric 'calls': ");
    SessionException program = failure(() -> session.enableMetric("calls", "<>", "test"));
    assertThat(program.failure()).isEqualTo(Failure.BAD_INPUT);
    assertThat(program.getMessage()).startsWith("metric 'calls' cannot be measured at <>: ");
    assertThat(session.probes()).isEmpty();
  }

  @Test
  void aPlanThatFailsHalfWayIsRolledBack() {
    MetricFileOutcome added = session.addMetrics("mix.metrics", String.join("\n",
        "metric calls_while_io {",
        "  description \"calls scaled by io wait\"",
        "  unit count/s",
        "  value calls * io_wait",
        "  combine sum",
        "}"));
    assertThat(added.errors()).isEmpty();
    assertThat(added.added()).containsExactly("calls_while_io");
    SessionException e = failure(() -> session.enableMetric("calls_while_io", "</Code/com.acme/Sim/step()V>", "t"));
    assertThat(e.getMessage()).startsWith("metric 'calls_while_io' at </Code/com.acme/Sim/step()V>: watching")
        .contains("unknown event");
    assertThat(session.probes()).isEmpty();
    assertThat(peer.probes()).isEmpty();
    assertThat(session.activeMetrics()).isEmpty();
  }

  @Test
  void metricFilesAddNamesOrReportErrorsAtLineAndColumn() {
    MetricFileOutcome broken = session.addMetrics("bad.metrics", "metric x {\n  combine total\n}\n");
    assertThat(broken.hasErrors()).isTrue();
    assertThat(broken.errors().get(0).line()).isEqualTo(2);
    assertThat(broken.errorText()).startsWith("bad.metrics:2:11: expected 'sum', 'avg', 'min' or 'max'");
    assertThat(session.metricList()).noneMatch(m -> m.get("name").equals("x"));
    MetricFileOutcome good = session.addMetrics("good.metrics", String.join("\n",
        "metric step_calls {",
        "  description \"calls, again\"",
        "  unit count/s",
        "  accumulates calls",
        "  refine /Code exclusive",
        "  combine sum",
        "  report rate",
        "}"));
    assertThat(good.added()).containsExactly("step_calls");
    assertThat(session.metricList()).anyMatch(m -> m.get("name").equals("step_calls")
        && m.get("source").equals("good.metrics"));
    assertThat(session.metricList()).anyMatch(m -> m.get("name").equals("cpu") && m.get("source").equals("built-in"));
    ActiveMetric m = session.enableMetric("step_calls", "</Code/com.acme/Sim/step()V>", "test");
    assertThat(secondValue(m.metricId()).hasValue()).isTrue();
  }
}
