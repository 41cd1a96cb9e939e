package dev.bottlenose.daemon.bus;

import dev.bottlenose.bus.protocol.DaemonEvents;
import dev.bottlenose.bus.protocol.DaemonReplies;
import dev.bottlenose.daemon.session.ActiveMetric;
import dev.bottlenose.daemon.session.IntervalTotals;
import dev.bottlenose.daemon.session.MetricFileOutcome;
import dev.bottlenose.daemon.session.MetricValue;
import dev.bottlenose.daemon.session.ProbeCostShare;
import dev.bottlenose.daemon.session.ProbeInfo;
import dev.bottlenose.daemon.session.ProbeValue;
import dev.bottlenose.daemon.session.RemovedProbe;
import dev.bottlenose.daemon.session.ResourceEntry;
import dev.bottlenose.daemon.session.Sample;
import dev.bottlenose.daemon.session.SourceInfo;
import dev.bottlenose.daemon.session.SourceValue;
import dev.bottlenose.bus.protocol.BadField;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The session's values as the bus protocol's records ({@code bus.protocol.DaemonReplies}, {@code DaemonEvents}):
 * the one place the daemon turns what its session returns into what it answers and publishes. What the
 * session still returns as a map (its status, a plan, a call graph) is read into its record with the record's
 * own {@code from}.
 */
final class Wire {
  private Wire() {}

  static DaemonEvents.Sample sample(Sample s) {
    return new DaemonEvents.Sample(s.atMillis(), s.intervalNanos(), s.probes().stream().map(Wire::probeValue).toList(),
        s.sources().stream().map(Wire::sourceValue).toList(), cost(s.cost()), s.vmDeltas(),
        s.metrics().stream().map(Wire::metricValue).toList());
  }

  static DaemonEvents.Totals totals(IntervalTotals t) {
    return new DaemonEvents.Totals(t.count(), t.nanos(), t.bytes(), t.countDelta(), t.nanosDelta(), t.bytesDelta(),
        t.countPerSecond(), t.nanosPerSecond(), t.bytesPerSecond());
  }

  static DaemonEvents.ProbeValue probeValue(ProbeValue p) {
    return new DaemonEvents.ProbeValue(p.probeId(), p.method(), p.kind(), totals(p));
  }

  static DaemonEvents.SourceValue sourceValue(SourceValue v) {
    return new DaemonEvents.SourceValue(v.sourceId(), v.source(), totals(v),
        v.throughMillis() >= 0 ? v.throughMillis() : null);
  }

  static DaemonEvents.Cost cost(ProbeCostShare c) {
    return new DaemonEvents.Cost(c.probeNanos(), c.agentCpuNanos(), c.eventNanos(), c.retransformNanos(),
        c.processCpuNanos(), c.sideCpuNanos() >= 0 ? c.sideCpuNanos() : null, c.ioCalls() >= 0 ? c.ioCalls() : null,
        finite(c.fraction()), c.daemonCpuNanos() >= 0 ? c.daemonCpuNanos() : null,
        c.toolJitNanos() >= 0 ? c.toolJitNanos() : null);
  }

  static DaemonEvents.MetricValue metricValue(MetricValue m) {
    return new DaemonEvents.MetricValue(m.metricId(), m.metric(), m.focus(), finite(m.value()), m.unit(),
        finite(m.eventsPerSecond()), finite(m.predictedCost()), finite(m.observedCost()), m.error(),
        m.dataThroughMillis() >= 0 ? m.dataThroughMillis() : null);
  }

  static DaemonReplies.Probe probe(ProbeInfo p) {
    return new DaemonReplies.Probe(p.probeId(), p.method(), p.kind(), p.callee(), p.askedBy(), p.sinceMillis(),
        p.retransformNanos());
  }

  static DaemonReplies.RemovedProbe removed(RemovedProbe r) {
    return new DaemonReplies.RemovedProbe(r.probeId(), r.method(), r.className(), r.retransformNanos(),
        r.classRestored());
  }

  static DaemonReplies.Source source(SourceInfo s) {
    return new DaemonReplies.Source(s.sourceId(), s.source(), s.askedBy(), s.sinceMillis());
  }

  /** The metric as {@code metric.enable} and {@code metrics.list} answer it: {@code methodsInstrumented} counts the probes of each expanded plan item. */
  static DaemonReplies.ActiveMetric activeMetric(ActiveMetric m) {
    Map<String, Integer> expanded = new LinkedHashMap<>();
    m.probesByItem().forEach((item, ids) -> {
      if (m.plan().items().stream().anyMatch(i -> i.id().equals(item) && i.type().equals("probes"))) {
        expanded.put(item, ids.size());
      }
    });
    var predicted = m.predictedCost();
    return new DaemonReplies.ActiveMetric(m.metricId(), m.metric(), m.focus(), m.plan().unit(), m.requester(),
        m.probeCount(), m.sourceByItem().size(), expanded, m.methodsSkipped(), m.classesBusy(),
        new JsonObject(m.plan().toJson()), new JsonObject(predicted.toJson()), predicted.fractionAt(100), m.sinceMillis());
  }

  static DaemonReplies.Resource resource(ResourceEntry e) {
    return new DaemonReplies.Resource(e.path(), e.kind(), e.attributes());
  }

  static DaemonReplies.MetricsAdded metricsAdded(MetricFileOutcome o) {
    return new DaemonReplies.MetricsAdded(o.fileName(), o.added(), o.errors().stream()
        .map(e -> new DaemonReplies.MetricError(e.file(), e.line(), e.column(), e.message())).toList());
  }

  static DaemonEvents.Changes changes(List<Map<String, Object>> changes) {
    return new DaemonEvents.Changes(changes.stream().map(c -> new JsonObject(new LinkedHashMap<>(c))).toList());
  }

  static List<JsonObject> objects(List<Map<String, Object>> maps) {
    return maps.stream().map(m -> new JsonObject(new LinkedHashMap<>(m))).toList();
  }

  /**
   * What the session returned as a map, read into its record; a bad field there is the daemon's own fault, so
   * it fails as one (500), not as the requester's bad input (400).
   */
  static <T> T read(Function<Object, T> from, Map<String, Object> session) {
    try {
      return from.apply(new JsonObject(session));
    } catch (BadField e) {
      throw new IllegalStateException("the session's answer does not fit the protocol: " + e.getMessage(), e);
    }
  }

  private static Double finite(double d) {
    return Double.isFinite(d) ? d : null;
  }
}
