package dev.bottlenose.daemon.session;

import dev.bottlenose.metrics.Calibration;
import dev.bottlenose.metrics.Diagnostics;
import dev.bottlenose.metrics.MetricCompiler;
import dev.bottlenose.metrics.MetricDefinition;
import dev.bottlenose.metrics.MetricException;
import dev.bottlenose.metrics.MetricLibrary;
import dev.bottlenose.metrics.ProbePlan;
import dev.bottlenose.model.Focus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Turns metric–focus pairs into running measurements on one {@link TargetSession}: looks the metric up in
 * the session's library (built-ins plus files added while it runs), compiles it against the focus,
 * inserts its probes and watches its sources, and evaluates its value for every sample.
 */
final class MetricSession {
  private static final String BUILT_IN = "built-in";

  private final PlanTarget session;
  private final Supplier<Map<String, Long>> calibration;
  private final Map<Long, ActiveMetric> active = new ConcurrentHashMap<>();
  /** Metrics whose probes and sources are being removed. */
  private final Set<Long> leaving = ConcurrentHashMap.newKeySet();
  private final Map<String, String> origins = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong(1);
  private volatile MetricLibrary library = MetricLibrary.builtin();
  /** Compiled plans by metric and focus text, at most {@value #KEPT_PLANS}, least recently used first out. */
  private final Map<String, ProbePlan> plans = java.util.Collections.synchronizedMap(
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ProbePlan> eldest) {
          return size() > KEPT_PLANS;
        }
      });
  static final int KEPT_PLANS = 1024;

  /** {@code calibration}: what a call, an allocation and a sample stand for on the target (the agent's hello). */
  MetricSession(PlanTarget session, Supplier<Map<String, Long>> calibration) {
    this.session = session;
    this.calibration = calibration;
  }

  MetricLibrary library() {
    return library;
  }

  /** Adds a metric file's metrics; on errors (each at line:column) nothing changes. */
  synchronized MetricFileOutcome add(String fileName, String text) {
    if (fileName == null || fileName.isBlank() || text == null) {
      throw SessionException.badInput("adding metrics needs 'fileName' and 'text', the file's contents");
    }
    Diagnostics d = library.with(fileName, text);
    if (d.hasErrors()) {
      return new MetricFileOutcome(fileName, List.of(), d.errors());
    }
    MetricLibrary next = d.library();
    List<String> added = next.metrics().stream().map(MetricDefinition::name).filter(n -> !library.contains(n))
        .toList();
    added.forEach(n -> origins.put(n, fileName));
    library = next;
    plans.clear();
    return new MetricFileOutcome(fileName, added, List.of());
  }

  /** Every metric the session knows: name, description, unit, kind, and where it was defined. */
  List<Map<String, Object>> list() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (MetricDefinition m : library.metrics()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("name", m.name());
      e.put("description", m.description());
      e.put("unit", m.unit());
      e.put("derived", m.isDerived());
      e.put("source", origins.getOrDefault(m.name(), BUILT_IN));
      out.add(e);
    }
    return out;
  }

  List<ActiveMetric> active() {
    return List.copyOf(active.values());
  }

  /**
   * What measuring {@code metricName} at {@code focus} would insert, and its predicted cost, without inserting
   * anything: the same compiled plan as {@link #enable} uses, for any metric this daemon knows (built in, or
   * added at run time), so a consultant can price a metric it has never seen.
   */
  Map<String, Object> plan(String metricName, Focus focus) {
    MetricDefinition metric = lookUp(metricName);
    ProbePlan plan = compiled(metric, requireFocus(metricName, focus));
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("metric", metricName);
    m.put("focus", focus.toString());
    m.put("unit", metric.unit());
    m.put("plan", plan.toJson());
    m.put("predictedCost", plan.predictedCost(calibration()).toJson());
    return m;
  }

  ActiveMetric enable(String metricName, Focus focus, String requester, Long samplePeriodMillis) {
    MetricDefinition metric = lookUp(metricName);
    ProbePlan plan = compiled(metric, requireFocus(metricName, focus));
    Calibration calibration = calibration();
    long id = nextId.getAndIncrement();
    String who = requester == null || requester.isBlank() ? "unknown" : requester;
    ActiveMetric m = new PlanInserter(session, ActiveMetric.askedBy(id, metricName, focus.toString(), who),
        samplePeriodMillis)
        .insert(id, metricName, focus.toString(), who, plan, calibration);
    active.put(id, m);
    return m;
  }

  /**
   * The plan of {@code metric} at {@code focus}, compiled once: a consultant asks for the plan to price a node
   * ({@code metric.plan}) and then enables the same pair, and both get this one compilation. Plans depend
   * only on the definition and the focus; adding metrics, which may redefine one, forgets them all.
   */
  private ProbePlan compiled(MetricDefinition metric, Focus focus) {
    String key = metric.name() + " " + focus;
    ProbePlan known = plans.get(key);
    if (known != null) {
      return known;
    }
    try {
      ProbePlan plan = MetricCompiler.compile(metric, focus);
      plans.put(key, plan);
      return plan;
    } catch (MetricException e) {
      throw SessionException.badInput("metric '" + metric.name() + "' cannot be measured at " + focus + ": "
          + e.getMessage());
    }
  }

  /**
   * Removes exactly the probes and sources metric {@code metricId} inserted. The metric stays listed until
   * they are out of the ledger, so whoever lists both never sees probes that belong to no metric; it gets no
   * more values from the moment its removal starts.
   */
  Map<String, Object> disable(long metricId) {
    ActiveMetric m = active.get(metricId);
    if (m == null || !leaving.add(metricId)) {
      throw new SessionException(SessionException.Failure.NOT_FOUND, "no metric " + metricId
          + " enabled in this session (enabled: " + (active.isEmpty() ? "none" : active.keySet()) + ")");
    }
    Map<String, Object> out;
    try {
      out = new LinkedHashMap<>(PlanInserter.remove(session, m));
    } finally {
      active.remove(metricId);
      leaving.remove(metricId);
    }
    out.put("metricId", metricId);
    out.put("metric", m.metric());
    out.put("focus", m.focus());
    return out;
  }

  /** The value of every enabled metric over the sample's interval. */
  List<MetricValue> evaluate(Sample sample) {
    List<MetricValue> values = new ArrayList<>();
    for (ActiveMetric m : active.values()) {
      if (leaving.contains(m.metricId())) {
        continue;
      }
      values.add(MetricReading.of(m, sample));
    }
    values.sort((a, b) -> Long.compare(a.metricId(), b.metricId()));
    return values;
  }

  private MetricDefinition lookUp(String name) {
    if (name == null || name.isBlank()) {
      throw SessionException.badInput("enabling a metric needs 'metric', a metric name, and 'focus'");
    }
    MetricLibrary lib = library;
    if (!lib.contains(name)) {
      throw new SessionException(SessionException.Failure.NOT_FOUND, "no metric '" + name + "'; known metrics: "
          + lib.metrics().stream().map(MetricDefinition::name).collect(Collectors.joining(", ")));
    }
    return lib.metric(name);
  }

  private static Focus requireFocus(String metricName, Focus focus) {
    if (focus == null) {
      throw noFocus(metricName);
    }
    return focus;
  }

  private static SessionException noFocus(String metricName) {
    return SessionException.badInput("metric '" + metricName + "' needs a 'focus' such as </Code/com.acme/Cache>"
        + " or <> for the whole program");
  }

  /** A focus given as text, parsed where it enters (the command line, an in-process caller). */
  static Focus parseFocus(String metricName, String focusText) {
    if (focusText == null || focusText.isBlank()) {
      throw noFocus(metricName);
    }
    try {
      return Focus.parse(focusText);
    } catch (IllegalArgumentException e) {
      throw SessionException.badInput("focus '" + focusText + "' for metric '" + metricName + "': " + e.getMessage());
    }
  }

  private Calibration calibration() {
    try {
      return Calibration.fromJson(calibration.get());
    } catch (IllegalArgumentException e) {
      throw new SessionException(SessionException.Failure.FAILED, "the agent sent no usable calibration, so "
          + "metric values cannot be computed: " + e.getMessage());
    }
  }
}
