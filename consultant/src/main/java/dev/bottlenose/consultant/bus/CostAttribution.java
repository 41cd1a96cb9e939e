package dev.bottlenose.consultant.bus;

import dev.bottlenose.bus.protocol.DaemonEvents;
import dev.bottlenose.consultant.MeasurementSink;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a daemon's sample shows the port's measurements on it cost, and their values, handed to their sinks.
 *
 * <p>Observed cost: a sample's probe executions, the commits of the JFR events recorded only for watched
 * sources ({@code cost.eventNanos}: both spent on the program's threads) and the agent's CPU
 * ({@code cost.agentCpuNanos}) above the agent's idle cost (its average over the samples in which none of
 * this port's metrics ran on that daemon), over the target's CPU in the same sample (at least one core, as
 * for predictions), is split across the port's active metrics on that daemon in proportion to each one's
 * predicted cost in the sample (equally when none has one). The idle cost is paid whether or not a metric
 * runs, so it is not charged to the metrics; it goes to {@link MeasurementSink#attached} (the largest of
 * the daemons', as a fraction of that target's CPU), and the scheduler takes it off the budget before the
 * metrics share it: the budget is against the program without the tool. A sample among the first
 * {@value #SETTLING_SAMPLES} of a metric just started that inserted probes carries its one-time insertion cost
 * (classes retransformed on the agent's thread): that sample's agent CPU is reported as side cost, and only its
 * probes' executions and events are charged to the metrics. A metric that only watches the target's events
 * changes no class, so a jump of the agent's CPU then is not its start's (on a program that defines thousands of
 * classes a second the agent's and JFR's threads took 0.12 of the target's CPU in one such sample, which as side
 * cost overdrew a 1% search's one-time bucket twice over and started nothing for 20 s). A probe in a method called
 * hundreds of millions of times a second costs from its first sample on; had the whole sample gone to side cost,
 * a search starting new metrics every step would never see whom to shed.
 *
 * <p>Recompiling: the daemon's {@code cost.sideCpuNanos} (the target's JIT compiler threads and VM Thread)
 * above its rate in idle samples goes to {@link MeasurementSink#recompiling}: the JIT compiling again what
 * inserting and removing probes threw away. The scheduler pays it from its bucket of one-time costs.
 */
final class CostAttribution {
  static final int SETTLING_SAMPLES = 2;

  private final Collection<TargetDaemon> daemons;
  private final Collection<MeasurementSink> sinks;
  private final OwnCpuRate ownCpu = new OwnCpuRate();

  /** Attribution over {@code daemons}, telling {@code sinks} (live views of the port's) of the tool's own costs. */
  CostAttribution(Collection<TargetDaemon> daemons, Collection<MeasurementSink> sinks) {
    this.daemons = daemons;
    this.sinks = sinks;
  }

  /** A sample of daemon {@code d}; {@code active}: every measurement of the port, on any daemon. */
  void sampled(TargetDaemon d, DaemonEvents.Sample sample, Collection<EventBusMeasurementPort.Active> active) {
    long at = sample.atMillis();
    Map<Long, DaemonEvents.MetricValue> byId = new LinkedHashMap<>();
    sample.metrics().forEach(m -> byId.put(m.metricId(), m));
    List<EventBusMeasurementPort.Active> ours = active.stream().filter(a -> a.daemon == d && a.metricId != null
        && byId.containsKey(a.metricId)).toList();
    boolean idle = active.stream().noneMatch(a -> a.daemon == d);
    TargetDaemon.Spent spent = d.sampled(sample, idle, TargetDaemon.MIN_CORES);
    ours.forEach(a -> a.samples++);
    boolean settling = ours.stream().anyMatch(a -> a.samples <= SETTLING_SAMPLES && a.probes > 0);
    double side = settling && !Double.isNaN(spent.agent()) ? spent.agent() : 0;
    sinks.forEach(s -> s.sideCost(at, side));
    if (!Double.isNaN(spent.recompiling())) {
      sinks.forEach(s -> s.recompiling(at, spent.recompiling()));
    }
    double attached = attached();
    if (!Double.isNaN(attached)) {
      sinks.forEach(s -> s.attached(at, attached));
    }
    double own = ownCpu.nanosPerSecond();
    double searcher = largest(t -> t.ofTargetCpu(own, TargetDaemon.MIN_CORES));
    double daemon = largest(t -> t.ofTargetCpu(t.daemonNanosPerSecond(), TargetDaemon.MIN_CORES));
    sinks.forEach(s -> s.toolProcesses(at, daemon, searcher));
    Long toolJit = sample.cost().toolJitNanos();
    if (toolJit != null) {
      sinks.forEach(s -> s.toolJit(at, toolJit, sample.cost().processCpuNanos()));
    }
    double charged = settling ? spent.inProgramThreads() : spent.total();
    double totalPredicted = ours.stream().mapToDouble(a -> predicted(byId.get(a.metricId))).sum();
    for (EventBusMeasurementPort.Active a : ours) {
      DaemonEvents.MetricValue m = byId.get(a.metricId);
      Double value = m.value();
      if (value == null) {
        continue;
      }
      double share = totalPredicted > 0 ? predicted(m) / totalPredicted : 1.0 / ours.size();
      double cost = charged * share;
      Long through = m.dataThroughMillis();
      if (through == null) {
        a.sink.value(a.handle, at - intervalMillis(sample), at, value, cost);
      } else {
        if (a.dataTime == null) {
          a.dataTime = new DataTime(a.sinceMillis);
        }
        DataTime.Stretch stretch = a.dataTime.sampled(value, intervalMillis(sample), through);
        if (stretch != null) {
          a.sink.value(a.handle, stretch.fromMillis(), stretch.toMillis(), stretch.value(), cost);
        }
      }
    }
  }

  /** The most being attached costs any of the targets at rest (each target's budget is its own); NaN: none known. */
  private double attached() {
    return largest(d -> d.attached(TargetDaemon.MIN_CORES));
  }

  /** The largest of the targets' shares (each target's budget is its own); NaN: none known. */
  private double largest(java.util.function.ToDoubleFunction<TargetDaemon> share) {
    return daemons.stream().mapToDouble(share).filter(f -> !Double.isNaN(f)).max().orElse(Double.NaN);
  }

  private static long intervalMillis(DaemonEvents.Sample sample) {
    return sample.intervalMillis();
  }

  private static double predicted(DaemonEvents.MetricValue metricValue) {
    Double p = metricValue.predictedCost();
    return p == null || !(p > 0) ? 0 : p;
  }
}
