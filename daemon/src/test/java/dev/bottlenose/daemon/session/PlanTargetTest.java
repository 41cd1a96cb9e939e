package dev.bottlenose.daemon.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.agent.wire.Removed;
import dev.bottlenose.agent.wire.SourceSpec;
import dev.bottlenose.model.Focus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Metrics on a {@link PlanTarget} of the test's own, no session and no agent: what a plan asks of the target is
 * exactly the interface, and a refusal rolls back what was already in.
 */
class PlanTargetTest {
  private static final Map<String, Long> CALIBRATION = Map.of("virtualCallNanos", 5L, "allocationNanos", 20L,
      "samplePeriodNanos", 20_000_000L);

  /** Records what it is asked; refuses a watch when {@code refuseWatch}. */
  private static final class Recording implements PlanTarget {
    final List<SourceSpec> watched = new ArrayList<>();
    final List<Long> unwatched = new ArrayList<>();
    final List<String> enabled = new ArrayList<>();
    final List<Long> disabled = new ArrayList<>();
    boolean refuseWatch;
    long ids;

    @Override
    public List<ResourceEntry> resources(String path, int depth) {
      return List.of();
    }

    @Override
    public ProbeInfo enable(String focus, String kindWord, String callee, String askedBy) {
      enabled.add(focus);
      return new ProbeInfo(++ids, focus, kindWord, callee, askedBy, 0, 0);
    }

    @Override
    public List<BatchOutcome<ProbeInfo>> enableAll(List<String> foci, String kindWord, String askedBy) {
      return foci.stream().map(f -> BatchOutcome.done(enable(f, kindWord, null, askedBy))).toList();
    }

    @Override
    public List<BatchOutcome<RemovedProbe>> disableAll(List<Long> probeIds) {
      disabled.addAll(probeIds);
      return probeIds.stream().map(id -> BatchOutcome.done(new RemovedProbe("", new Removed(id, "com.acme.Sim", 0,
          true)))).toList();
    }

    @Override
    public SourceInfo watch(SourceSpec source, String askedBy) {
      if (refuseWatch) {
        throw SessionException.badInput("unknown event '" + source.event() + "'");
      }
      watched.add(source);
      return new SourceInfo(++ids, source.toMap(), askedBy, 0);
    }

    @Override
    public SourceInfo unwatch(long sourceId) {
      unwatched.add(sourceId);
      return new SourceInfo(sourceId, Map.of("event", "cpu_sample"), "test", 0);
    }
  }

  @Test
  void aMetricWatchesItsSourcesThroughThePlanTargetAtThePeriodAskedFor() {
    Recording target = new Recording();
    MetricSession metrics = new MetricSession(target, () -> CALIBRATION);
    ActiveMetric m = metrics.enable("cpu", Focus.parse("</Code/com.acme/Sim>"), "consultant", 50L);
    assertThat(target.watched).isNotEmpty().allSatisfy(s -> {
      assertThat(s.event()).isEqualTo("cpu_sample");
      assertThat(s.periodMillis()).isEqualTo(50L);
      assertThat(s.code()).contains("/Code/com.acme/Sim");
    });
    assertThat(m.sourceByItem()).hasSize(target.watched.size());
    assertThat(metrics.disable(m.metricId())).containsEntry("sourcesRemoved", target.watched.size());
    assertThat(target.unwatched).containsExactlyElementsOf(m.sourceByItem().values());
  }

  @Test
  void aProbeMetricInsertsThroughThePlanTargetAndARefusedSourceRollsBack() {
    Recording target = new Recording();
    MetricSession metrics = new MetricSession(target, () -> CALIBRATION);
    ActiveMetric calls = metrics.enable("calls", Focus.parse("</Code/com.acme/Sim/step()V>"), "consultant", null);
    assertThat(target.enabled).containsExactly("/Code/com.acme/Sim/step()V");
    metrics.disable(calls.metricId());
    assertThat(target.disabled).containsExactlyElementsOf(calls.probesByItem().values().stream()
        .flatMap(List::stream).toList());

    target.refuseWatch = true;
    assertThatThrownBy(() -> metrics.enable("cpu", Focus.parse("</Code/com.acme/Sim>"), "consultant", null))
        .isInstanceOf(SessionException.class)
        .hasMessageStartingWith("metric 'cpu' at </Code/com.acme/Sim>: unknown event 'cpu_sample'");
    assertThat(metrics.active()).isEmpty();
  }
}
