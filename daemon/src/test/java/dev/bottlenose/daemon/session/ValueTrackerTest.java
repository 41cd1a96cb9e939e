package dev.bottlenose.daemon.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.bottlenose.agent.wire.Fields;
import dev.bottlenose.agent.wire.ReadReply;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValueTrackerTest {
  private static final Map<Long, ProbeInfo> PROBES = Map.of(7L,
      new ProbeInfo(7, "/Code/a/B/c()V", "call_count", null, "test", 0, 1000));

  private static Map<String, Object> read(long nanoTime, long count, long probeNanos, long agentCpu,
      long retransform, Long processCpu, long gcCount) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("nanoTime", nanoTime);
    m.put("readings", List.of(Map.of("probeId", 7L, "kind", "call_count", "count", count, "nanos", 0L)));
    m.put("cost", Map.of("executions", count, "probeNanos", probeNanos, "retransformNanos", retransform));
    m.put("agentCpuNanos", agentCpu);
    if (processCpu != null) {
      m.put("processCpuNanos", processCpu);
    }
    m.put("vm", Map.of("gcCount", gcCount));
    return m;
  }

  /** The totals of a read as the tests write them: the agent's answer, with the daemon's additions beside it. */
  private static Totals totals(Map<String, Object> m) {
    return new Totals(ReadReply.fromMap(m), Fields.mapsOr(m, "sources"), Fields.numberOr(m, "sourceEvents", 0),
        Fields.numberOr(m, "stacklessSourceEvents", 0), Fields.numberOr(m, "sideCpuNanos", -1), Fields.numberOr(m, "ioCalls", -1), Fields.numberOr(m, "daemonCpuNanos", -1),
        Fields.numberOr(m, "toolJitNanos", -1), Fields.numberOr(m, "jitNanos", -1));
  }

  @Test
  void theToolsJitIsItsShareOfTheCompilationsTimesTheCompilerThreadsCpu() {
    Map<String, Object> then = read(0, 0, 0, 0, 0, 0L, 0);
    then.put("toolJitNanos", 0L);
    then.put("jitNanos", 0L);
    then.put("sideCpuNanos", 0L);
    Map<String, Object> now = read(1_000_000_000L, 0, 0, 0, 0, 0L, 0);
    // compilations that lasted 3 s, 2 s of them in the tool's wake; the compiler threads used 1.2 s of CPU
    now.put("toolJitNanos", 2_000_000_000L);
    now.put("jitNanos", 3_000_000_000L);
    now.put("sideCpuNanos", 1_200_000_000L);
    assertThat(ValueTracker.toolJit(totals(now), totals(then), 1_200_000_000L)).isEqualTo(800_000_000L);
    assertThat(ValueTracker.toolJit(totals(now), totals(then), -1)).as("without the threads' CPU, the durations")
        .isEqualTo(2_000_000_000L);
    now.put("jitNanos", 2_000_000_000L);
    now.put("toolJitNanos", 0L);
    assertThat(ValueTracker.toolJit(totals(now), totals(then), 1_200_000_000L)).isZero();
    now.remove("toolJitNanos");
    assertThat(ValueTracker.toolJit(totals(now), totals(then), 1_200_000_000L)).as("no repository").isEqualTo(-1);
  }

  @Test
  void sourcesGetDeltasAndRatesFromTheirWatch() {
    Map<Long, SourceInfo> sources = Map.of(4L, new SourceInfo(4, Map.of("event", "park"), "test", 0));
    ValueTracker tracker = new ValueTracker();
    Map<String, Object> first = new LinkedHashMap<>(read(0, 0, 0, 0, 0, 0L, 0));
    first.put("sources", List.of(Map.of("sourceId", 4L, "count", 2L, "nanos", 1_000L, "bytes", 0L)));
    tracker.next(totals(first), 1, PROBES, sources);
    Map<String, Object> second = new LinkedHashMap<>(read(500_000_000L, 0, 0, 0, 0, 0L, 0));
    second.put("sources", List.of(Map.of("sourceId", 4L, "count", 12L, "nanos", 251_000L, "bytes", 0L),
        Map.of("sourceId", 5L, "count", 1L, "nanos", 0L, "bytes", 64L)));
    Sample s = tracker.next(totals(second), 2, PROBES, sources);
    SourceValue park = s.source(4);
    assertThat(park.source()).containsEntry("event", "park");
    assertThat(park.countDelta()).isEqualTo(10);
    assertThat(park.countPerSecond()).isCloseTo(20, within(1e-9));
    assertThat(park.nanosPerSecond()).isCloseTo(500_000, within(1e-6));
    assertThat(s.source(5).bytesDelta()).as("a source new in this interval counts from zero").isEqualTo(64);
    assertThat(s.toJson().get("sources")).asList().hasSize(2);
  }

  @Test
  void theFirstReadIsTheBaseline() {
    assertThat(new ValueTracker().next(totals(read(0, 10, 0, 0, 0, 0L, 0)), 1, PROBES)).isNull();
  }

  @Test
  void computesDeltasRatesAndCostShare() {
    ValueTracker tracker = new ValueTracker();
    tracker.next(totals(read(1_000_000_000L, 100, 1_000, 50_000, 200_000, 1_000_000_000L, 3)), 1, PROBES);
    Sample s = tracker.next(totals(read(1_500_000_000L, 600, 6_000, 150_000, 200_000, 1_400_000_000L, 5)), 2, PROBES);

    assertThat(s.intervalNanos()).isEqualTo(500_000_000L);
    ProbeValue v = s.probe(7);
    assertThat(v.method()).isEqualTo("/Code/a/B/c()V");
    assertThat(v.count()).isEqualTo(600);
    assertThat(v.countDelta()).isEqualTo(500);
    assertThat(v.countPerSecond()).isCloseTo(1000.0, within(1e-9));
    assertThat(s.cost().probeNanos()).isEqualTo(5_000);
    assertThat(s.cost().agentCpuNanos()).isEqualTo(100_000);
    assertThat(s.cost().retransformNanos()).isZero();
    assertThat(s.cost().fraction()).isCloseTo(105_000 / 400_000_000.0, within(1e-12));
    assertThat(s.vmDeltas()).containsEntry("gcCount", 2L);
  }

  @Test
  void eventsRecordedOnlyForSourcesAreChargedAtTheCostModelsPrice() {
    ValueTracker tracker = new ValueTracker();
    Map<String, Object> first = read(0, 0, 0, 0, 0, 0L, 0);
    first.put("sourceEvents", 100L);
    tracker.next(totals(first), 1, PROBES);
    Map<String, Object> second = read(1_000_000_000L, 0, 0, 40_000, 0, 1_000_000_000L, 0);
    second.put("sourceEvents", 350L);
    Sample s = tracker.next(totals(second), 2, PROBES);

    long each = Math.round(dev.bottlenose.metrics.ProbePlan.WATCHED_EVENT_NANOS);
    assertThat(s.cost().eventNanos()).isEqualTo(250 * each);
    assertThat(s.cost().totalNanos()).isEqualTo(40_000 + 250 * each);
    assertThat(s.toJson()).extractingByKey("cost").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
        .containsEntry("eventNanos", 250 * each);
    Map<String, Object> withoutJfr = read(2_000_000_000L, 0, 0, 40_000, 0, 2_000_000_000L, 0);
    assertThat(tracker.next(totals(withoutJfr), 3, PROBES).cost().eventNanos()).as("a read without the count charges nothing")
        .isZero();

    ValueTracker stacks = new ValueTracker();
    Map<String, Object> before = read(0, 0, 0, 0, 0, 0L, 0);
    stacks.next(totals(before), 1, PROBES);
    Map<String, Object> after = read(1_000_000_000L, 0, 0, 0, 0, 1_000_000_000L, 0);
    after.put("sourceEvents", 1000L);
    after.put("stacklessSourceEvents", 800L);
    assertThat(stacks.next(totals(after), 2, PROBES).cost().eventNanos())
        .as("200 events with a stack walk, 800 without, each at its own price")
        .isEqualTo(Math.round(200 * dev.bottlenose.metrics.ProbePlan.WATCHED_EVENT_NANOS
            + 800 * dev.bottlenose.metrics.ProbePlan.WATCHED_STACKLESS_EVENT_NANOS));
  }

  @Test
  void aProbeNewSinceTheLastReadCountsFromZero() {
    ValueTracker tracker = new ValueTracker();
    Map<String, Object> empty = read(0, 0, 0, 0, 0, 0L, 0);
    empty.put("readings", List.of());
    tracker.next(totals(empty), 1, PROBES);
    assertThat(tracker.next(totals(read(1_000_000_000L, 42, 0, 0, 0, 1L, 0)), 2, PROBES).probe(7).countDelta()).isEqualTo(42);
  }

  @Test
  void anUnknownProcessCpuLeavesTheShareUnknown() {
    ValueTracker tracker = new ValueTracker();
    tracker.next(totals(read(0, 0, 0, 0, 0, null, 0)), 1, PROBES);
    Sample s = tracker.next(totals(read(1_000, 1, 1, 1, 0, null, 0)), 2, PROBES);
    assertThat(s.cost().fraction()).isNaN();
    assertThat(s.toJson()).extractingByKey("cost").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
        .containsEntry("fraction", null);
  }
}
