package dev.bottlenose.daemon.session;

import dev.bottlenose.metrics.Calibration;
import dev.bottlenose.metrics.ProbePlan;
import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Inserts a plan's probes and watches its sources on a session, all or nothing: when one fails, what was
 * already inserted is removed again and the error names the metric, the focus and the item.
 */
final class PlanInserter {
  private final TargetSession session;
  private final String askedBy;
  private final Map<String, List<Long>> probesByItem = new LinkedHashMap<>();
  private final Map<String, Long> sourceByItem = new LinkedHashMap<>();
  private int skipped;
  private String lastRefusal = "";

  PlanInserter(TargetSession session, String askedBy) {
    this.session = session;
    this.askedBy = askedBy;
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
    return new ActiveMetric(id, metric, focus, requester, plan, probesByItem, sourceByItem, skipped, calibration,
        System.currentTimeMillis());
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
        @SuppressWarnings("unchecked")
        Map<String, Object> source = (Map<String, Object>) r.get("source");
        sourceByItem.put(item.id(), session.watch(source, askedBy).sourceId());
        break;
      default:
        throw new SessionException(SessionException.Failure.FAILED, "plan item " + item.id() + " has unknown type '"
            + item.type() + "'");
    }
  }

  /**
   * One probe per concrete method of the class or package {@code under}; abstract and native ones, and any the
   * agent refuses as bad input (an unmodifiable class), are skipped and counted.
   */
  private void expand(String itemId, String under, String kind) {
    ResourcePath path = ResourcePath.parse(under);
    List<Long> ids = new ArrayList<>();
    probesByItem.put(itemId, ids);
    for (ResourceEntry e : session.resources(under, path.depth() == 1 ? 2 : 1)) {
      if (!"method".equals(e.kind()) || e.path().name().startsWith("<clinit>")) {
        continue;
      }
      if (e.attributes().containsKey("abstract") || e.attributes().containsKey("native")) {
        skipped++;
        continue;
      }
      try {
        ids.add(session.enable(e.path().toString(), kind, null, askedBy).probeId());
      } catch (SessionException refused) {
        if (refused.failure() != SessionException.Failure.BAD_INPUT) {
          throw refused;
        }
        skipped++;
        lastRefusal = "; the last refused: " + refused.getMessage();
      }
    }
    if (ids.isEmpty()) {
      throw new SessionException(SessionException.Failure.NOT_FOUND, "no method under " + under + " takes a "
          + kind + " probe (its class must be loaded; " + skipped + " abstract, native or refused" + lastRefusal + ")");
    }
  }

  private void rollBack() {
    probesByItem.values().forEach(ids -> ids.forEach(id -> quietly(() -> session.disable(id))));
    sourceByItem.values().forEach(id -> quietly(() -> session.unwatch(id)));
  }

  private static void quietly(Runnable r) {
    try {
      r.run();
    } catch (SessionException e) {
      System.err.println("[bottlenose] rolling back a metric: " + e.getMessage());
    }
  }

  /** Removes a metric's probes and sources; says how many and how many classes got their bytes back. */
  static Map<String, Object> remove(TargetSession session, ActiveMetric m) {
    int probes = 0;
    int restored = 0;
    List<String> failures = new ArrayList<>();
    for (List<Long> ids : m.probesByItem().values()) {
      for (long id : ids) {
        try {
          restored += session.disable(id).classRestored() ? 1 : 0;
          probes++;
        } catch (SessionException e) {
          failures.add(e.getMessage());
        }
      }
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
    out.put("classesRestored", restored);
    out.put("failures", failures);
    return out;
  }
}
