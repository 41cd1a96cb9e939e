package dev.bottlenose.daemon.session;

import dev.bottlenose.agent.wire.SourceSpec;
import dev.bottlenose.agent.wire.WireException;
import dev.bottlenose.metrics.Calibration;
import dev.bottlenose.metrics.ProbePlan;
import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Inserts a plan's probes and watches its sources on a session, all or nothing: when one fails, what was
 * already inserted is removed again and the error names the metric, the focus and the item.
 */
final class PlanInserter {
  private final PlanTarget session;
  private final String askedBy;
  private final Long samplePeriodMillis;
  private final Map<String, List<Long>> probesByItem = new LinkedHashMap<>();
  private final Map<String, Long> sourceByItem = new LinkedHashMap<>();
  private final Map<String, String> busy = new LinkedHashMap<>();
  private int skipped;
  private String lastRefusal = "";

  /** {@code samplePeriodMillis}: what the plan's {@code cpu_sample} sources ask JFR for, or null for the default. */
  PlanInserter(PlanTarget session, String askedBy, Long samplePeriodMillis) {
    this.session = session;
    this.askedBy = askedBy;
    this.samplePeriodMillis = samplePeriodMillis;
  }

  ActiveMetric insert(long id, String metric, String focus, String requester, ProbePlan plan,
      Calibration calibration) {
    for (ProbePlan.Item item : plan.items()) {
      try {
        insert(item);
      } catch (SessionException e) {
        rollBack();
        throw new SessionException(e.failure(), "metric '" + metric + "' at " + focus + ": " + e.getMessage(), e);
      }
    }
    double cpuSamplePeriodNanos = samplePeriodMillis == null ? calibration.samplePeriodNanos() : samplePeriodMillis * 1e6;
    return new ActiveMetric(id, metric, focus, requester, plan, probesByItem, sourceByItem, skipped, busy, calibration,
        cpuSamplePeriodNanos, System.currentTimeMillis());
  }

  private void insert(ProbePlan.Item item) {
    Map<String, Object> r = item.request();
    switch (item.type()) {
      case "probe":
        probesByItem.put(item.id(), List.of(session.enable((String) r.get("method"), (String) r.get("kind"),
            (String) r.get("callee"), askedBy).probeId()));
        break;
      case "probes":
        expand(item.id(), (String) r.get("expand"), (String) r.get("kind"));
        break;
      case "source":
        SourceSpec source = source(item.id(), r.get("source"));
        boolean sampled = "cpu_sample".equals(source.event()) || "alloc_sample".equals(source.event());
        if (samplePeriodMillis != null && sampled) {
          source = source.withPeriod(samplePeriodMillis);
        }
        sourceByItem.put(item.id(), session.watch(source, askedBy).sourceId());
        break;
      default:
        throw new SessionException(SessionException.Failure.FAILED, "plan item " + item.id() + " has unknown type '"
            + item.type() + "'");
    }
  }

  /** A plan item's source, read as the channel reads it; a malformed one is bad input naming the field. */
  private static SourceSpec source(String itemId, Object source) {
    try {
      return SourceSpec.fromMap(source);
    } catch (WireException e) {
      throw SessionException.badInput("plan item " + itemId + ": " + e.getMessage());
    }
  }

  /**
   * One probe per concrete method of the class or package {@code under}, all inserted with one agent request;
   * abstract and native ones, any the agent refuses as bad input (an unmodifiable class) and those of a class
   * with a long-running activation ({@link BusyClassException}, kept with why) are skipped and counted. Any
   * other refusal fails the item (what the batch inserted is rolled back with the rest).
   */
  private void expand(String itemId, String under, String kind) {
    ResourcePath path = ResourcePath.parse(under);
    List<Long> ids = new ArrayList<>();
    probesByItem.put(itemId, ids);
    List<String> methods = new ArrayList<>();
    for (ResourceEntry e : session.resources(under, path.depth() == 1 ? 2 : 1)) {
      if (!"method".equals(e.kind()) || e.path().name().startsWith("<clinit>")) {
        continue;
      }
      if (e.attributes().containsKey("abstract") || e.attributes().containsKey("native")) {
        skipped++;
        continue;
      }
      methods.add(e.path().toString());
    }
    SessionException failure = null;
    for (BatchOutcome<ProbeInfo> o : session.enableAll(methods, kind, askedBy)) {
      if (o.ok()) {
        ids.add(o.value().probeId());
      } else if (o.failure() instanceof BusyClassException b) {
        skipped++;
        busy.putIfAbsent(b.className(), b.why());
        lastRefusal = "; the last refused: " + b.getMessage();
      } else if (o.failure().failure() == SessionException.Failure.BAD_INPUT) {
        skipped++;
        lastRefusal = "; the last refused: " + o.failure().getMessage();
      } else if (failure == null) {
        failure = o.failure();
      }
    }
    if (failure != null) {
      throw failure;
    }
    if (ids.isEmpty()) {
      throw new SessionException(SessionException.Failure.NOT_FOUND, "no method under " + under + " takes a "
          + kind + " probe (its class must be loaded; " + skipped + " abstract, native or refused" + lastRefusal + ")");
    }
  }

  private void rollBack() {
    quietly(() -> session.disableAll(allProbes(probesByItem)).stream().filter(o -> !o.ok())
        .forEach(o -> System.err.println("[bottlenose] rolling back a metric: " + o.failure().getMessage())));
    sourceByItem.values().forEach(id -> quietly(() -> session.unwatch(id)));
  }

  private static List<Long> allProbes(Map<String, List<Long>> probesByItem) {
    List<Long> all = new ArrayList<>();
    probesByItem.values().forEach(all::addAll);
    return all;
  }

  private static void quietly(Runnable r) {
    try {
      r.run();
    } catch (SessionException e) {
      System.err.println("[bottlenose] rolling back a metric: " + e.getMessage());
    }
  }

  /**
   * Removes a metric's probes (with one agent request) and sources; says how many, and how many classes got
   * their bytes back.
   */
  static Map<String, Object> remove(PlanTarget session, ActiveMetric m) {
    int probes = 0;
    Set<String> restored = new HashSet<>();
    List<String> failures = new ArrayList<>();
    try {
      for (BatchOutcome<RemovedProbe> o : session.disableAll(allProbes(m.probesByItem()))) {
        if (o.ok()) {
          probes++;
          if (o.value().classRestored()) {
            restored.add(o.value().className());
          }
        } else {
          failures.add(o.failure().getMessage());
        }
      }
    } catch (SessionException e) {
      failures.add(e.getMessage());
    }
    int sources = 0;
    for (long id : m.sourceByItem().values()) {
      try {
        session.unwatch(id);
        sources++;
      } catch (SessionException e) {
        failures.add(e.getMessage());
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("probesRemoved", probes);
    out.put("sourcesRemoved", sources);
    out.put("classesRestored", restored.size());
    out.put("failures", failures);
    return out;
  }
}
