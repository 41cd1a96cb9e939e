package dev.bottlenose.bus.protocol;

import static dev.bottlenose.bus.protocol.DaemonEvents.array;
import static dev.bottlenose.bus.protocol.DaemonEvents.put;

import dev.bottlenose.bus.protocol.DaemonEvents.Announcement;
import dev.bottlenose.bus.protocol.DaemonEvents.Sample;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The replies a daemon answers its requests ({@link DaemonRequests}) with, one record each: the daemon writes
 * them with {@code toJson()}, a member reads one with {@code from(body)} (a bad field is a {@link BadField} naming
 * the field and the value). Parts another component defines and the daemon passes on (the agent's status and
 * ledger, a compiled plan, the calibration) stay {@link JsonObject}s, read by their owners.
 */
public final class DaemonReplies {
  private DaemonReplies() {}

  /**
   * {@code status}: the session's state, the target, its probes, metrics and sources, the JFR reading's state
   * ({@code jfr}) and, while the target runs, the agent's own status ({@code agent}); once it ended, why
   * ({@code endReason}). {@code node} and {@code holders}: the daemon's member and the members that hold it.
   */
  public record Status(String state, long pid, String mainClass, String javaVersion, long intervalMillis,
      String toolCompilation, JsonObject calibration, int probes, List<MetricRef> metrics, List<Source> sources,
      int samples, int resourcesSeen, JsonObject jfr, JsonObject agent, String endReason, String node,
      List<String> holders) {
    public Status {
      metrics = List.copyOf(metrics);
      sources = List.copyOf(sources);
      holders = List.copyOf(holders);
    }

    public static Status from(Object body) {
      Fields f = Fields.of(body);
      return new Status(f.requiredText("state"), f.wholeNumber("pid", -1), f.text("mainClass"), f.text("javaVersion"),
          f.wholeNumber("intervalMillis", 0), f.text("toolCompilation"), orEmpty(f.json("calibration")),
          f.integer("probes", 0), f.objects("metrics").stream().map(MetricRef::read).toList(),
          f.objects("sources").stream().map(Source::read).toList(), f.integer("samples", 0),
          f.integer("resourcesSeen", 0), orEmpty(f.json("jfr")), f.json("agent"), f.text("endReason"), f.text("node"),
          f.texts("holders"));
    }

    public boolean isRunning() {
      return DaemonEvents.RUNNING.equals(state);
    }

    /** The status as its member answers it: with the member's node and the holders. */
    public Status answeredBy(String node, List<String> holders) {
      return new Status(state, pid, mainClass, javaVersion, intervalMillis, toolCompilation, calibration, probes,
          metrics, sources, samples, resourcesSeen, jfr, agent, endReason, node, holders);
    }

    public JsonObject toJson() {
      JsonObject o = new JsonObject().put("state", state).put("pid", pid).put("mainClass", mainClass)
          .put("javaVersion", javaVersion).put("intervalMillis", intervalMillis).put("toolCompilation", toolCompilation)
          .put("calibration", calibration).put("probes", probes)
          .put("metrics", array(metrics.stream().map(MetricRef::toJson).toList()))
          .put("sources", array(sources.stream().map(Source::toJson).toList())).put("samples", samples)
          .put("resourcesSeen", resourcesSeen).put("jfr", jfr);
      if (agent != null) {
        o.put("agent", agent);
      } else {
        o.put("endReason", endReason);
      }
      return put(o, "node", node, "holders", holders == null ? null : array(holders));
    }
  }

  /** A metric the status lists: its id, name and focus. */
  public record MetricRef(long metricId, String metric, String focus) {
    static MetricRef read(Fields f) {
      return new MetricRef(f.requiredWholeNumber("metricId"), f.text("metric"), f.text("focus"));
    }

    public JsonObject toJson() {
      return new JsonObject().put("metricId", metricId).put("metric", metric).put("focus", focus);
    }
  }

  /**
   * A source the session watches ({@code source}: {@code {"event","code","thread","form"}}), who asked and
   * since when: the reply of {@code watch} and {@code unwatch}, and the status's sources.
   */
  public record Source(long sourceId, Map<String, Object> source, String askedBy, long sinceMillis) {
    public Source {
      source = Collections.unmodifiableMap(new LinkedHashMap<>(source));
    }

    public static Source from(Object body) {
      return read(Fields.of(body));
    }

    static Source read(Fields f) {
      Map<String, Object> source = f.object("source");
      return new Source(f.requiredWholeNumber("sourceId"), source == null ? Map.of() : source, f.text("askedBy"),
          f.wholeNumber("sinceMillis", -1));
    }

    public JsonObject toJson() {
      return new JsonObject().put("sourceId", sourceId).put("source", new JsonObject(new LinkedHashMap<>(source)))
          .put("askedBy", askedBy).put("sinceMillis", sinceMillis);
    }
  }

  /** {@code enable}: the probe inserted, where, who asked, since when, and what the retransformation took. */
  public record Probe(long probeId, String method, String kind, String callee, String askedBy, long sinceMillis,
      long retransformNanos) {
    public static Probe from(Object body) {
      Fields f = Fields.of(body);
      return new Probe(f.requiredWholeNumber("probeId"), f.text("method"), f.text("kind"), f.text("callee"),
          f.text("askedBy"), f.wholeNumber("sinceMillis", -1), f.wholeNumber("retransformNanos", 0));
    }

    public JsonObject toJson() {
      JsonObject o = put(new JsonObject().put("probeId", probeId).put("method", method).put("kind", kind),
          "callee", callee);
      return o.put("askedBy", askedBy).put("sinceMillis", sinceMillis).put("retransformNanos", retransformNanos);
    }
  }

  /** {@code disable}: the probe taken out, its class, the retransformation's time, whether the class has its original bytes again. */
  public record RemovedProbe(long probeId, String method, String className, long retransformNanos,
      boolean classRestored) {
    public static RemovedProbe from(Object body) {
      Fields f = Fields.of(body);
      return new RemovedProbe(f.requiredWholeNumber("probeId"), f.text("method"), f.text("className"),
          f.wholeNumber("retransformNanos", 0), f.bool("classRestored", false));
    }

    public JsonObject toJson() {
      return new JsonObject().put("probeId", probeId).put("method", method).put("className", className)
          .put("retransformNanos", retransformNanos).put("classRestored", classRestored);
    }
  }

  /**
   * A metric–focus pair the daemon measures: the reply of {@code metric.enable} and each of {@code metrics.list}'s
   * {@code active}. Its probes and sources, the probes per expanded plan item ({@code methodsInstrumented}), the
   * classes an expansion left out because a method of theirs has been running for a while, with why
   * ({@code classesBusy}), its plan and predicted cost as the metric compiler writes them.
   */
  public record ActiveMetric(long metricId, String metric, String focus, String unit, String requester, int probes,
      int sources, Map<String, Integer> methodsInstrumented, int methodsSkipped, Map<String, String> classesBusy,
      JsonObject plan, JsonObject predictedCost, double predictedCostAt100PerSecond, long sinceMillis) {
    public ActiveMetric {
      methodsInstrumented = Collections.unmodifiableMap(new LinkedHashMap<>(methodsInstrumented));
      classesBusy = Collections.unmodifiableMap(new LinkedHashMap<>(classesBusy));
    }

    public static ActiveMetric from(Object body) {
      return read(Fields.of(body));
    }

    static ActiveMetric read(Fields f) {
      Map<String, Integer> expanded = new LinkedHashMap<>();
      Fields m = f.nested("methodsInstrumented");
      if (m != null) {
        m.body().fieldNames().forEach(item -> expanded.put(item, m.integer(item, 0)));
      }
      Map<String, String> busy = new LinkedHashMap<>();
      Fields b = f.nested("classesBusy");
      if (b != null) {
        b.body().fieldNames().forEach(c -> busy.put(c, b.text(c)));
      }
      return new ActiveMetric(f.requiredWholeNumber("metricId"), f.text("metric"), f.text("focus"), f.text("unit"),
          f.text("requester"), f.integer("probes", 0), f.integer("sources", 0), expanded,
          f.integer("methodsSkipped", 0), busy, orEmpty(f.json("plan")), orEmpty(f.json("predictedCost")),
          f.decimal("predictedCostAt100PerSecond", Double.NaN), f.wholeNumber("sinceMillis", -1));
    }

    public JsonObject toJson() {
      return new JsonObject().put("metricId", metricId).put("metric", metric).put("focus", focus).put("unit", unit)
          .put("requester", requester).put("probes", probes).put("sources", sources)
          .put("methodsInstrumented", new JsonObject(new LinkedHashMap<>(methodsInstrumented)))
          .put("methodsSkipped", methodsSkipped).put("classesBusy", new JsonObject(new LinkedHashMap<>(classesBusy)))
          .put("plan", plan).put("predictedCost", predictedCost)
          .put("predictedCostAt100PerSecond", predictedCostAt100PerSecond).put("sinceMillis", sinceMillis);
    }
  }

  /** {@code metric.disable}: what removing the metric's probes and sources did, and what could not be removed. */
  public record MetricDisabled(int probesRemoved, int sourcesRemoved, int classesRestored, List<String> failures,
      long metricId, String metric, String focus) {
    public MetricDisabled {
      failures = List.copyOf(failures);
    }

    public static MetricDisabled from(Object body) {
      Fields f = Fields.of(body);
      return new MetricDisabled(f.integer("probesRemoved", 0), f.integer("sourcesRemoved", 0),
          f.integer("classesRestored", 0), f.texts("failures"), f.requiredWholeNumber("metricId"), f.text("metric"),
          f.text("focus"));
    }

    public JsonObject toJson() {
      return new JsonObject().put("probesRemoved", probesRemoved).put("sourcesRemoved", sourcesRemoved)
          .put("classesRestored", classesRestored).put("failures", array(failures)).put("metricId", metricId)
          .put("metric", metric).put("focus", focus);
    }
  }

  /** {@code metric.plan}: what measuring the pair would insert ({@code plan}) and its predicted cost, as the compiler writes them. */
  public record MetricPlan(String metric, String focus, String unit, JsonObject plan, JsonObject predictedCost) {
    public static MetricPlan from(Object body) {
      Fields f = Fields.of(body);
      JsonObject plan = f.json("plan");
      if (plan == null) {
        throw Fields.missing("plan", "an object");
      }
      return new MetricPlan(f.text("metric"), f.text("focus"), f.text("unit"), plan, orEmpty(f.json("predictedCost")));
    }

    public JsonObject toJson() {
      return new JsonObject().put("metric", metric).put("focus", focus).put("unit", unit).put("plan", plan)
          .put("predictedCost", predictedCost);
    }
  }

  /** {@code metrics.list}: every metric the daemon knows, and those it measures now. */
  public record MetricsList(List<MetricInfo> metrics, List<ActiveMetric> active) {
    public MetricsList {
      metrics = List.copyOf(metrics);
      active = List.copyOf(active);
    }

    public static MetricsList from(Object body) {
      Fields f = Fields.of(body);
      return new MetricsList(f.objects("metrics").stream().map(MetricInfo::read).toList(),
          f.objects("active").stream().map(ActiveMetric::read).toList());
    }

    public JsonObject toJson() {
      return new JsonObject().put("metrics", array(metrics.stream().map(MetricInfo::toJson).toList()))
          .put("active", array(active.stream().map(ActiveMetric::toJson).toList()));
    }
  }

  /** A metric the daemon knows: its description, unit, whether it is derived, and where it came from (built in, or a file). */
  public record MetricInfo(String name, String description, String unit, boolean derived, String source) {
    public static MetricInfo from(Object body) {
      return read(Fields.of(body));
    }

    static MetricInfo read(Fields f) {
      return new MetricInfo(f.requiredText("name"), f.text("description"), f.text("unit"), f.bool("derived", false),
          f.text("source"));
    }

    public JsonObject toJson() {
      return new JsonObject().put("name", name).put("description", description).put("unit", unit)
          .put("derived", derived).put("source", source);
    }
  }

  /** {@code metrics.add}: the metrics a file added (a file with errors is refused, 400, with this as its text). */
  public record MetricsAdded(String fileName, List<String> added, List<MetricError> errors) {
    public MetricsAdded {
      added = List.copyOf(added);
      errors = List.copyOf(errors);
    }

    public static MetricsAdded from(Object body) {
      Fields f = Fields.of(body);
      return new MetricsAdded(f.text("fileName"), f.texts("added"),
          f.objects("errors").stream().map(MetricError::read).toList());
    }

    public JsonObject toJson() {
      return new JsonObject().put("fileName", fileName).put("added", array(added))
          .put("errors", array(errors.stream().map(MetricError::toJson).toList()));
    }
  }

  /** An error in a metric file, at its line and column. */
  public record MetricError(String file, int line, int column, String message) {
    static MetricError read(Fields f) {
      return new MetricError(f.text("file"), f.integer("line", 0), f.integer("column", 0), f.text("message"));
    }

    public JsonObject toJson() {
      return new JsonObject().put("file", file).put("line", line).put("column", column).put("message", message);
    }
  }

  /** {@code ledger}: every probe and watched source in the target, by any session, each as the agent lists it with {@code askedBy}. */
  public record Ledger(List<JsonObject> entries, List<JsonObject> sources) {
    public Ledger {
      entries = List.copyOf(entries);
      sources = List.copyOf(sources);
    }

    public static Ledger from(Object body) {
      Fields f = Fields.of(body);
      return new Ledger(f.objects("entries").stream().map(Fields::body).toList(),
          f.objects("sources").stream().map(Fields::body).toList());
    }

    public JsonObject toJson() {
      return new JsonObject().put("entries", array(entries)).put("sources", array(sources));
    }
  }

  /** {@code values.history}: the last samples, oldest first. */
  public record ValuesHistory(List<Sample> samples) {
    public ValuesHistory {
      samples = List.copyOf(samples);
    }

    public static ValuesHistory from(Object body) {
      return new ValuesHistory(Fields.of(body).objects("samples").stream().map(Sample::read).toList());
    }

    public JsonObject toJson() {
      return new JsonObject().put("samples", array(samples.stream().map(Sample::toJson).toList()));
    }
  }

  /** {@code interval}: the sampling interval, after the request set it. */
  public record Interval(long intervalMillis) {
    public static Interval from(Object body) {
      return new Interval(Fields.of(body).requiredWholeNumber("intervalMillis"));
    }

    public JsonObject toJson() {
      return new JsonObject().put("intervalMillis", intervalMillis);
    }
  }

  /** {@code codepath}: the name as it was asked and the {@code /Code} path it names in the target. */
  public record CodePath(String name, ResourcePath path) {
    public static CodePath from(Object body) {
      Fields f = Fields.of(body);
      return new CodePath(f.text("name"), f.path("path"));
    }

    public JsonObject toJson() {
      return new JsonObject().put("name", name).put("path", path.toString());
    }
  }

  /** {@code classBytes}: the length and SHA-256 of a class's current bytes (-1 and null when the agent did not say). */
  public record ClassBytes(String className, long length, String sha256) {
    public static ClassBytes from(Object body) {
      Fields f = Fields.of(body);
      return new ClassBytes(f.text("className"), f.wholeNumber("length", -1), f.text("sha256"));
    }

    public JsonObject toJson() {
      return new JsonObject().put("className", className).put("length", length).put("sha256", sha256);
    }
  }

  /**
   * {@code callgraph}: one of the daemon's graphs at a /Code path: every sample taken ({@code samples}), those
   * through the path ({@code total}), its children (classes, methods, or a method's callees) with theirs, the
   * methods most often on top ({@code hot}) and most often the topmost of the program's own code, below the
   * platform's ({@code hotOwn}, {@code self} counting those), and the methods outside it within the JIT's
   * inlining depth on the sampled stacks: above it ({@code callers}, which may have compiled its methods in) and
   * below ({@code callees}, which it may have compiled in); both empty at {@code /Code}.
   */
  public record CallGraph(String path, long samples, long total, List<GraphChild> children, List<HotMethod> hot,
      List<HotMethod> hotOwn, List<GraphChild> callers, List<GraphChild> callees) {
    public CallGraph {
      children = List.copyOf(children);
      hot = List.copyOf(hot);
      hotOwn = List.copyOf(hotOwn);
      callers = List.copyOf(callers);
      callees = List.copyOf(callees);
    }

    public static CallGraph from(Object body) {
      Fields f = Fields.of(body);
      return new CallGraph(f.text("path"), f.wholeNumber("samples", 0), f.wholeNumber("total", 0),
          f.objects("children").stream().map(GraphChild::read).toList(),
          f.objects("hot").stream().map(HotMethod::read).toList(),
          f.objects("hotOwn").stream().map(HotMethod::read).toList(),
          f.objects("callers").stream().map(GraphChild::read).toList(),
          f.objects("callees").stream().map(GraphChild::read).toList());
    }

    public JsonObject toJson() {
      return new JsonObject().put("path", path).put("samples", samples).put("total", total)
          .put("children", array(children.stream().map(GraphChild::toJson).toList()))
          .put("hot", array(hot.stream().map(HotMethod::toJson).toList()))
          .put("hotOwn", array(hotOwn.stream().map(HotMethod::toJson).toList()))
          .put("callers", array(callers.stream().map(GraphChild::toJson).toList()))
          .put("callees", array(callees.stream().map(GraphChild::toJson).toList()));
    }
  }

  /**
   * A child in a call graph: a class or method it {@code contains}, or a callee it {@code calls}, and its samples;
   * in the lists of what is within the inlining depth, a {@code caller} or a {@code callee}.
   */
  public record GraphChild(ResourcePath path, long samples, String relation) {
    static GraphChild read(Fields f) {
      ResourcePath path = f.path("path");
      if (path == null) {
        throw Fields.missing(f.name("path"), "a resource path");
      }
      return new GraphChild(path, f.wholeNumber("samples", 0), f.text("relation"));
    }

    public JsonObject toJson() {
      return new JsonObject().put("path", path.toString()).put("samples", samples).put("relation", relation);
    }
  }

  /**
   * {@code stacks}: a graph's sampled stacks merged into a tree from the outermost frame (decayed counts, as the
   * call graph's), its nodes with the most samples: the root first ({@code /Code}, parent -1), each node after
   * its parent.
   */
  public record Stacks(String graph, long samples, List<StackFrame> frames) {
    public Stacks {
      frames = List.copyOf(frames);
    }

    public static Stacks from(Object body) {
      Fields f = Fields.of(body);
      return new Stacks(f.requiredText("graph"), f.wholeNumber("samples", 0), f.objects("frames").stream().map(StackFrame::read).toList());
    }

    public JsonObject toJson() {
      return new JsonObject().put("graph", graph).put("samples", samples)
          .put("frames", array(frames.stream().map(StackFrame::toJson).toList()));
    }
  }

  /**
   * The answer to {@code holders}: how many looks were taken, and each lock found held while others waited, by
   * what its holder was doing ({@link Held}), the most seen first.
   */
  public record Holders(int looks, List<Held> held) {
    public Holders {
      held = List.copyOf(held);
    }

    public static Holders from(Object body) {
      Fields f = Fields.of(body);
      return new Holders(f.integer("looks", 0), f.objects("held").stream().map(Held::read).toList());
    }

    public JsonObject toJson() {
      return new JsonObject().put("looks", looks).put("held", array(held.stream().map(Held::toJson).toList()));
    }
  }

  /**
   * One lock ({@code monitor com.acme.Cache}, or {@code lock} and a {@code java.util.concurrent} lock's class) held by thread
   * {@code owner} in state {@code ownerState} with this stack (top frame first, {@code /Code} paths without
   * descriptors), in {@code seen} looks, while {@code waiters} waited for it; {@code waiterPools} are their pools, as
   * the {@code /Threads} hierarchy names them.
   */
  public record Held(String lock, String owner, String ownerState, List<String> ownerStack, int seen, List<String> waiters,
      List<String> waiterPools) {
    public Held {
      ownerStack = List.copyOf(ownerStack);
      waiters = List.copyOf(waiters);
      waiterPools = List.copyOf(waiterPools);
    }

    static Held read(Fields f) {
      return new Held(f.requiredText("lock"), f.requiredText("owner"), f.text("ownerState", ""), f.texts("ownerStack"),
          f.integer("seen", 0), f.texts("waiters"), f.texts("waiterPools"));
    }

    public JsonObject toJson() {
      return new JsonObject().put("lock", lock).put("owner", owner).put("ownerState", ownerState)
          .put("ownerStack", array(ownerStack)).put("seen", seen).put("waiters", array(waiters))
          .put("waiterPools", array(waiterPools));
    }
  }

  /**
   * The answer to {@code recording}: the target's JFR recording as a file ({@code bytes}, the reply's body, a
   * buffer: not JSON), when the recording started and when it was dumped (epoch milliseconds, in the reply's
   * headers {@value #START_HEADER} and {@value #DUMPED_HEADER}).
   */
  public record Recording(Buffer bytes, long recordingStartMillis, long dumpedAtMillis) {
    public static final String START_HEADER = "recordingStartMillis";
    public static final String DUMPED_HEADER = "dumpedAtMillis";

    /** The reply as a member receives it: its body must be a buffer, its headers may say the times. */
    public static Recording from(Object body, MultiMap headers) {
      if (!(body instanceof Buffer b)) {
        throw Fields.wrong("body", "the recording's bytes (a buffer)", body == null ? null : body.getClass().getSimpleName());
      }
      return new Recording(b, millis(headers, START_HEADER), millis(headers, DUMPED_HEADER));
    }

    private static long millis(MultiMap headers, String name) {
      String v = headers == null ? null : headers.get(name);
      if (v == null) {
        return 0;
      }
      try {
        return Long.parseLong(v);
      } catch (NumberFormatException e) {
        throw Fields.wrong(name, "a whole number", v);
      }
    }

    /** The reply's delivery options: the times as its headers. */
    public DeliveryOptions replyOptions() {
      return new DeliveryOptions().addHeader(START_HEADER, Long.toString(recordingStartMillis))
          .addHeader(DUMPED_HEADER, Long.toString(dumpedAtMillis));
    }
  }

  /** One node of a stack tree: its parent's index (-1 for the root), its method, the samples through it and ending in it. */
  public record StackFrame(int parent, ResourcePath method, long total, long self) {
    static StackFrame read(Fields f) {
      ResourcePath method = f.path("method");
      if (method == null) {
        throw Fields.missing(f.name("method"), "a resource path");
      }
      return new StackFrame(f.integer("parent", -1), method, f.wholeNumber("total", 0), f.wholeNumber("self", 0));
    }

    public JsonObject toJson() {
      return new JsonObject().put("parent", parent).put("method", method.toString()).put("total", total).put("self", self);
    }
  }

  /** A method often on top of the stack: samples with it on top ({@code self}) and on the stack ({@code total}). */
  public record HotMethod(ResourcePath method, long self, long total) {
    static HotMethod read(Fields f) {
      ResourcePath method = f.path("method");
      if (method == null) {
        throw Fields.missing(f.name("method"), "a resource path");
      }
      return new HotMethod(method, f.wholeNumber("self", 0), f.wholeNumber("total", 0));
    }

    public JsonObject toJson() {
      return new JsonObject().put("method", method.toString()).put("self", self).put("total", total);
    }
  }

  /** {@code resources}: the resources found, each with its path, kind word and attributes. */
  public record Resources(List<Resource> resources) {
    public Resources {
      resources = List.copyOf(resources);
    }

    public static Resources from(Object body) {
      return new Resources(Fields.of(body).objects("resources").stream().map(Resource::read).toList());
    }

    public JsonObject toJson() {
      return new JsonObject().put("resources", array(resources.stream().map(Resource::toJson).toList()));
    }
  }

  /** One resource: its path, its kind word and its attributes (text, sorted by name). */
  public record Resource(ResourcePath path, String kind, Map<String, String> attributes) {
    public Resource {
      attributes = Collections.unmodifiableMap(new TreeMap<>(attributes));
    }

    static Resource read(Fields f) {
      ResourcePath path = f.path("path");
      if (path == null) {
        throw Fields.missing(f.name("path"), "a resource path");
      }
      Map<String, String> attributes = new TreeMap<>();
      Map<String, Object> given = f.object("attributes");
      if (given != null) {
        given.forEach((k, v) -> attributes.put(k, String.valueOf(v)));
      }
      return new Resource(path, f.text("kind"), attributes);
    }

    public JsonObject toJson() {
      return new JsonObject().put("path", path.toString()).put("kind", kind)
          .put("attributes", new JsonObject(new LinkedHashMap<>(attributes)));
    }
  }

  /** {@code hold}: the members that hold the daemon now. */
  public record Hold(String daemonId, List<String> holders) {
    public Hold {
      holders = List.copyOf(holders);
    }

    public static Hold from(Object body) {
      Fields f = Fields.of(body);
      return new Hold(f.text("daemonId"), f.texts("holders"));
    }

    public JsonObject toJson() {
      return new JsonObject().put("daemonId", daemonId).put("holders", array(holders));
    }
  }

  /** {@code daemons.list}: the daemons registered in the cluster whose members are still in it. */
  public record Daemons(List<Announcement> daemons) {
    public Daemons {
      daemons = List.copyOf(daemons);
    }

    public static Daemons from(Object body) {
      return new Daemons(Fields.of(body).objects("daemons").stream().map(Announcement::read).toList());
    }

    public JsonObject toJson() {
      return new JsonObject().put("daemons", array(daemons.stream().map(Announcement::toJson).toList()));
    }
  }

  private static JsonObject orEmpty(JsonObject o) {
    return o == null ? new JsonObject() : o;
  }
}
