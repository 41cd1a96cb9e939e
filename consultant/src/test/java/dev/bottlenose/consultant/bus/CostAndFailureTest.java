package dev.bottlenose.consultant.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.bottlenose.bus.protocol.BadField;
import dev.bottlenose.bus.protocol.DaemonEvents.Sample;
import dev.bottlenose.consultant.MeasurementFailure.Kind;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class CostAndFailureTest {

  @Test
  void observedCostIsTheAgentsCostAboveItsIdleCostOverTheTargetsCpuAtLeastOneCore() {
    TargetDaemon d = new TargetDaemon("d1");
    assertThat(d.attached(1)).as("before an idle sample").isNaN();
    assertThat(d.sampled(Sample.from(sample(500, 4_000_000, 1_800_000_000)), true, 1).total()).isZero();
    assertThat(d.idleNanosPerSecond()).isCloseTo(4_000_000, within(1.0));
    assertThat(d.cores()).isCloseTo(1.8, within(1e-9));
    assertThat(d.attached(1)).as("being attached at rest, of the target's CPU").isCloseTo(0.004 / 1.8, within(1e-9));
    // 12 ms of agent CPU per second above 4 ms idle, on a target using 1.8 cores
    assertThat(d.sampled(Sample.from(sample(500, 16_000_000, 1_800_000_000)), false, 1).total()).isCloseTo(0.012 / 1.8, within(1e-9));
    // a target nearly idle is charged against one core
    assertThat(d.sampled(Sample.from(sample(500, 16_000_000, 5_000_000)), false, 1).total()).isCloseTo(0.012, within(1e-9));
  }

  @Test
  void beingAttachedIsNeverCountedAboveWhatTheAgentCostLaterWithMetricsRunning() {
    TargetDaemon d = new TargetDaemon("d1");
    // right after the attach, no metric yet: 12 ms a second (the agent's code still interpreted)
    d.sampled(Sample.from(sample(1000, 12_000_000, 500_000_000)), true, 1);
    assertThat(d.attached(1)).isCloseTo(0.012, within(1e-9));
    // later, with metrics running, the agent costs 5 ms a second: at rest it cannot cost more than that
    for (int i = 0; i < 30; i++) {
      d.sampled(Sample.from(sample(1000, 5_000_000, 500_000_000)), false, 1);
    }
    assertThat(d.attached(1)).isCloseTo(0.005, within(1e-4));
    // what the agent costs above it is the metrics'
    assertThat(d.sampled(Sample.from(sample(1000, 9_000_000, 500_000_000)), false, 1).agent())
        .isCloseTo(0.004, within(1e-4));
  }

  @Test
  void theProbesExecutionsAndTheAgentsThreadsAreToldApart() {
    TargetDaemon d = new TargetDaemon("d1");
    d.sampled(Sample.from(sample(500, 4_000_000, 2_000_000_000)), true, 1);
    // a half-second sample of a target on 2 cores: 300 ms of probe executions, agent 10 ms per second (idle 4)
    JsonObject busy = sample(500, 10_000_000, 2_000_000_000);
    busy.getJsonObject("cost").put("probeNanos", 300_000_000L);

    TargetDaemon.Spent spent = d.sampled(Sample.from(busy), false, 1);

    assertThat(spent.probes()).isCloseTo(0.6 / 2, within(1e-9));
    assertThat(spent.agent()).isCloseTo(0.006 / 2, within(1e-9));
  }

  @Test
  void eventsRecordedForSourcesAreChargedLikeProbeExecutions() {
    TargetDaemon d = new TargetDaemon("d1");
    d.sampled(Sample.from(sample(500, 4_000_000, 2_000_000_000)), true, 1);
    // a half-second sample of a target on 2 cores: 3,000 events a second at 2 µs, the agent at its idle 4 ms
    JsonObject busy = sample(500, 4_000_000, 2_000_000_000);
    busy.getJsonObject("cost").put("eventNanos", 3_000_000L);

    TargetDaemon.Spent spent = d.sampled(Sample.from(busy), false, 1);

    assertThat(spent.events()).isCloseTo(0.006 / 2, within(1e-9));
    assertThat(spent.total()).isCloseTo(0.006 / 2, within(1e-9));
    assertThat(spent.inProgramThreads()).as("charged even while a metric settles").isCloseTo(0.006 / 2, within(1e-9));
  }

  @Test
  void theJitAndVmThreadsAboveTheirIdleRateAreRecompiling() {
    TargetDaemon d = new TargetDaemon("d1");
    JsonObject idle = sample(500, 4_000_000, 2_000_000_000);
    idle.getJsonObject("cost").put("sideCpuNanos", 5_000_000L);
    d.sampled(Sample.from(idle), true, 1);
    // compiler and VM threads at 410 ms per second, 10 ms idle, on a target using 2 cores
    JsonObject busy = sample(500, 4_000_000, 2_000_000_000);
    busy.getJsonObject("cost").put("sideCpuNanos", 205_000_000L);

    assertThat(d.sampled(Sample.from(busy), false, 1).recompiling()).isCloseTo(0.4 / 2, within(1e-9));
    assertThat(d.sampled(Sample.from(sample(500, 4_000_000, 2_000_000_000)), false, 1).recompiling())
        .as("a daemon that does not report them").isZero();
  }

  @Test
  void theDaemonsOwnCpuIsAShareOfTheTargetsCpuAndNeverAChargeOnTheMeasurements() {
    TargetDaemon d = new TargetDaemon("d1");
    assertThat(d.daemonNanosPerSecond()).as("before a sample").isNaN();
    // a half-second sample: the daemon used 30 ms (60 ms a second) while the target used 2 cores
    JsonObject s = sample(500, 4_000_000, 2_000_000_000);
    s.getJsonObject("cost").put("daemonCpuNanos", 30_000_000L);
    d.sampled(Sample.from(s), true, 1);
    assertThat(d.daemonNanosPerSecond()).isCloseTo(60_000_000, within(1.0));
    assertThat(d.ofTargetCpu(d.daemonNanosPerSecond(), 1)).isCloseTo(0.03, within(1e-9));
    JsonObject busy = sample(500, 4_000_000, 2_000_000_000);
    busy.getJsonObject("cost").put("daemonCpuNanos", 80_000_000L);
    assertThat(d.sampled(Sample.from(busy), false, 1).total()).as("not the measurements' cost").isZero();
    assertThat(d.daemonNanosPerSecond()).as("smoothed").isCloseTo(0.7 * 60_000_000 + 0.3 * 160_000_000, within(1.0));
  }

  @Test
  void aSampleOfAnEmptyIntervalSaysNothingAndOneWithoutCostIsNotRead() {
    TargetDaemon d = new TargetDaemon("d1");
    assertThat(d.sampled(Sample.from(sample(0, 4_000_000, 2_000_000_000)), true, 1).total()).isNaN();
    assertThat(d.cores()).isNaN();
    JsonObject noCost = sample(500, 4_000_000, 2_000_000_000);
    noCost.remove("cost");
    assertThatThrownBy(() -> Sample.from(noCost)).isInstanceOf(BadField.class)
        .hasMessage("'cost' is missing: it must be an object");
  }

  @Test
  void failureRepliesBecomeWhatTheSearchMakesOfThem() {
    assertThat(Failures.of("d1", reply(410, "the target has exited")).kind()).isEqualTo(Kind.TARGET_GONE);
    assertThat(Failures.of("d1", reply(404, "no metric 'x'; known metrics: cpu")).kind()).isEqualTo(Kind.METRIC_UNAVAILABLE);
    assertThat(Failures.of("d1", reply(400, "metric 'sync_wait' cannot be measured at </SyncObjects/a>: …")).kind())
        .isEqualTo(Kind.METRIC_UNAVAILABLE);
    assertThat(Failures.of("d1", reply(404, "no class com.acme.Gone")).kind()).isEqualTo(Kind.FOCUS_UNKNOWN);
    assertThat(Failures.of("d1", reply(409, "too many probes")))
        .satisfies(f -> assertThat(f.kind()).isEqualTo(Kind.METRIC_UNAVAILABLE))
        .satisfies(f -> assertThat(f.reason()).contains("daemon d1", "too many probes", "code 409"));
  }

  private static ReplyException reply(int code, String text) {
    return new ReplyException(ReplyFailure.RECIPIENT_FAILURE, code, text);
  }

  /** A sample over {@code intervalMillis} with the agent's and the process's CPU given per second. */
  private static JsonObject sample(long intervalMillis, long agentCpuNanos, long processCpuNanos) {
    long interval = intervalMillis * 1_000_000;
    return new JsonObject().put("atMillis", 1L).put("intervalNanos", interval).put("cost", new JsonObject()
        .put("probeNanos", 0L).put("agentCpuNanos", agentCpuNanos * intervalMillis / 1000)
        .put("processCpuNanos", processCpuNanos * intervalMillis / 1000));
  }
}
