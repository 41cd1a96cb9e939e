package dev.bottlenose.consultant.bus;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.Membership;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.consultant.CostPrediction;
import dev.bottlenose.consultant.MeasurementFailure;
import dev.bottlenose.consultant.MeasurementFailure.Kind;
import dev.bottlenose.consultant.MeasurementHandle;
import dev.bottlenose.consultant.MeasurementPort;
import dev.bottlenose.consultant.MeasurementSink;
import dev.bottlenose.consultant.MetricRequest;
import dev.bottlenose.metrics.MetricCompiler;
import dev.bottlenose.metrics.MetricException;
import dev.bottlenose.metrics.MetricLibrary;
import dev.bottlenose.metrics.ProbePlan;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * A {@link MeasurementPort} over the daemons' event-bus protocol ({@link DaemonProtocol}). A request is a
 * {@code metric.enable} on the daemon whose target is the focus's {@code /Process/<pid>} (or the only
 * daemon); release is {@code metric.disable}. Values come from each daemon's published samples. A focus
 * that names no process, in a search over several daemons, is measured on every one of them and their
 * values combined ({@link Combined}); its predicted cost is the largest of theirs.
 *
 * <p>Cost prediction: a built-in metric is compiled here with the built-in library, a metric added to the daemon
 * at run time by the daemon ({@code metric.plan}, asked once per metric and focus), against the daemon's
 * calibration, and its cost model is read at {@value #REFERENCE_EVENTS_PER_SECOND} events per second
 * (the daemon's own reference rate, {@code predictedCostAt100PerSecond}). That is a fraction of one CPU;
 * divided by the cores the target used in the last sample, but at least one, it is a fraction of the
 * target's CPU, the unit of the budget. A target using less than a core leaves the rest of that CPU idle,
 * so its overhead is charged against one CPU; otherwise a nearly idle program could not be measured at all.
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
 * {@value #SETTLING_SAMPLES} of a metric just started carries its one-time insertion cost (classes
 * retransformed on the agent's thread): that sample's agent CPU is reported as side cost, and only its
 * probes' executions and events are charged to the metrics. A probe in a method called hundreds of
 * millions of times a second costs from its first sample on; had the whole sample gone to side cost, a
 * search starting new metrics every step would never see whom to shed.
 *
 * <p>One-time cost: a metric that inserts probes retransforms the classes of its focus's {@code /Code} part
 * twice (in, and later out), and each time the JIT compiles their methods again, with everything it had
 * inlined into them. It is predicted as twice the larger of what the JIT took to compile the focus's
 * methods so far (the daemon's {@code /VM/JIT} resources, {@link CompileTimes}) and the share of the
 * sampled stacks that go through the focus (the daemon's call graph) times what it took to compile the
 * methods of the hot packages (those on at least 5% of the stacks; every compilation since the attach,
 * the JDK's and JFR's included, priced a one CPU-second insertion at fifteen); over the target's cores as
 * above: fraction of the target's CPU × seconds. The second covers a loop compiled before the attach (on-stack replacement, which starting JFR does not replace, so
 * it is not listed): the root of every worker's stack, its class looked free, and retransforming it
 * recompiled everything inlined into it, 1.1 s of the JIT's CPU in a 30 s search at 1%. Until the
 * daemon's first answers such a prediction is pending.
 *
 * <p>Recompiling: the daemon's {@code cost.sideCpuNanos} (the target's JIT compiler threads and VM Thread)
 * above its rate in idle samples goes to {@link MeasurementSink#recompiling}: the JIT compiling again what
 * inserting and removing probes threw away. The scheduler pays it from its bucket of one-time costs.
 */
public final class EventBusMeasurementPort implements MeasurementPort {
  static final double REFERENCE_EVENTS_PER_SECOND = 100;
  static final double MIN_TARGET_CORES = 1;
  static final int SETTLING_SAMPLES = 2;
  /** Probes going in and, later, out: the focus's compiled code is thrown away twice. */
  static final double RECOMPILES = 2;

  private final Vertx vertx;
  /** Enabling a metric on a whole package retransforms every class in it: give the daemon time. */
  private static final DeliveryOptions ENABLE_TIMEOUT = new DeliveryOptions().setSendTimeout(180_000);
  private final String requester;
  private final Long samplePeriodMillis;
  private final Map<String, TargetDaemon> daemons = new LinkedHashMap<>();
  private final MetricLibrary library = MetricLibrary.builtin();
  private final Map<Long, Active> active = new ConcurrentHashMap<>();
  private final Map<Long, List<MeasurementHandle>> partsOf = new ConcurrentHashMap<>();
  private final Set<MeasurementSink> sinks = ConcurrentHashMap.newKeySet();
  private final Set<Future<?>> inflight = ConcurrentHashMap.newKeySet();
  private final List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();
  private final AtomicLong nextHandle = new AtomicLong(1);
  private volatile BiConsumer<String, String> onTargetGone = (daemon, reason) -> { };

  private static final class Active {
    final MeasurementHandle handle;
    final MeasurementSink sink;
    final TargetDaemon daemon;
    volatile Long metricId;
    volatile long sinceMillis = -1;
    volatile boolean released;
    int samples;
    DataTime dataTime;

    Active(MeasurementHandle handle, MeasurementSink sink, TargetDaemon daemon) {
      this.handle = handle;
      this.sink = sink;
      this.daemon = daemon;
    }
  }

  /** How a search's end reason starts when one of its daemons left the cluster. */
  public static final String DAEMON_LOST = "daemon lost";
  private Runnable leaving = () -> {};

  public EventBusMeasurementPort(Vertx vertx, List<String> daemonIds, String requester) {
    this(vertx, daemonIds, requester, null);
  }

  /**
   * A port whose metrics ask their daemons to sample the threads every {@code samplePeriodMillis} (null: the
   * agent's configured period); see {@link dev.bottlenose.consultant.SamplingPeriod}.
   */
  public EventBusMeasurementPort(Vertx vertx, List<String> daemonIds, String requester, Long samplePeriodMillis) {
    this.samplePeriodMillis = samplePeriodMillis;
    if (daemonIds.isEmpty()) {
      throw new IllegalArgumentException("a measurement port needs at least one daemon id");
    }
    this.vertx = vertx;
    this.requester = requester;
    for (String id : daemonIds) {
      TargetDaemon d = new TargetDaemon(id);
      daemons.put(id, d);
      consumers.add(vertx.eventBus().<JsonObject>consumer(Addresses.values(id), m -> sampled(d, m.body())));
      consumers.add(vertx.eventBus().<JsonObject>consumer(Addresses.exited(id),
          m -> targetGone(d, m.body().getString("endReason", "the target exited"))));
      d.ready(vertx);
    }
    if (vertx.isClustered()) {
      leaving = Membership.onLeft(vertx, node -> daemons.values().stream().filter(d -> node.equals(d.node()))
          .forEach(d -> targetGone(d, DAEMON_LOST + ": it left the cluster (killed, or its host unreachable)")));
    }
  }

  /**
   * Called (daemon id, reason) when a target exits or its agent goes away (the daemon's reason), or when the
   * daemon itself leaves the cluster ("{@value #DAEMON_LOST}: …"), which the cluster's membership tells.
   */
  public void onTargetGone(BiConsumer<String, String> listener) {
    this.onTargetGone = listener;
  }

  @Override
  public CostPrediction predict(MetricRequest request) {
    if (!daemons.values().stream().allMatch(d -> d.ready(vertx))) {
      return CostPrediction.pending();
    }
    if (overEveryDaemon(request)) {
      return largest(daemons.values().stream().map(d -> predict(d, request)).toList());
    }
    try {
      return predict(daemonFor(request), request);
    } catch (IllegalArgumentException e) {
      return CostPrediction.failed(new MeasurementFailure(Kind.FOCUS_UNKNOWN, e.getMessage()));
    }
  }

  /** Pending or failed if one of them is, else the largest cost and the largest one-time cost. */
  private static CostPrediction largest(List<CostPrediction> predictions) {
    double cost = 0;
    double once = 0;
    for (CostPrediction p : predictions) {
      if (p.isPending() || p.failure() != null) {
        return p;
      }
      cost = Math.max(cost, p.cost());
      once = Math.max(once, p.once());
    }
    return CostPrediction.of(cost, once);
  }

  private CostPrediction predict(TargetDaemon d, MetricRequest request) {
    if (d.gone() != null) {
      return CostPrediction.failed(new MeasurementFailure(Kind.TARGET_GONE, "daemon " + d.id + ": " + d.gone()));
    }
    if (Double.isNaN(d.cores()) || Double.isNaN(d.idleNanosPerSecond())) {
      return CostPrediction.pending();
    }
    try {
      ProbePlan plan;
      if (library.contains(request.metric())) {
        plan = MetricCompiler.compile(library.metric(request.metric()), request.focus());
      } else {
        TargetDaemon.Plan known = d.plan(vertx, request);
        if (known == null) {
          return CostPrediction.pending();
        }
        if (known.failure() != null) {
          return CostPrediction.failed(new MeasurementFailure(Kind.METRIC_UNAVAILABLE, "daemon " + d.id + ": "
              + known.failure()));
        }
        plan = known.plan();
      }
      double cores = Math.max(MIN_TARGET_CORES, d.cores());
      double oneCpu = plan.predictedCost(d.calibration()).fractionAt(REFERENCE_EVENTS_PER_SECOND);
      if (!retransforms(plan)) {
        return CostPrediction.of(oneCpu / cores);
      }
      ResourcePath code = request.focus().get(Hierarchy.CODE);
      CompileTimes compiled = d.compileTimes(vertx);
      double share = d.stackShare(vertx, code);
      List<ResourcePath> hot = d.hotPackages(vertx);
      if (compiled == null || Double.isNaN(share) || hot == null) {
        return CostPrediction.pending();
      }
      double recompile = RECOMPILES * Math.max(compiled.within(code), share * compiled.within(hot));
      return CostPrediction.of(oneCpu / cores, recompile / cores);
    } catch (MetricException e) {
      return CostPrediction.failed(new MeasurementFailure(Kind.METRIC_UNAVAILABLE, e.getMessage()));
    }
  }

  /** Whether measuring {@code plan} inserts probes (and so retransforms classes), not only watches sources. */
  private static boolean retransforms(ProbePlan plan) {
    return plan.items().stream().anyMatch(i -> !i.type().equals("source"));
  }

  @Override
  public MeasurementHandle request(MetricRequest request, double predictedCost, MeasurementSink sink) {
    MeasurementHandle handle = new MeasurementHandle(nextHandle.getAndIncrement(), request);
    sinks.add(sink);
    if (overEveryDaemon(request)) {
      Combined combined = new Combined(handle, sink, combineOf(request.metric()));
      Map<MeasurementHandle, TargetDaemon> parts = new LinkedHashMap<>();
      for (TargetDaemon d : daemons.values()) {
        MeasurementHandle part = new MeasurementHandle(nextHandle.getAndIncrement(), request);
        combined.add(part);
        parts.put(part, d);
      }
      partsOf.put(handle.id(), List.copyOf(parts.keySet()));
      parts.forEach((part, d) -> enable(part, combined, d));
      return handle;
    }
    try {
      enable(handle, sink, daemonFor(request));
    } catch (IllegalArgumentException e) {
      sink.failed(handle, new MeasurementFailure(Kind.FOCUS_UNKNOWN, e.getMessage()));
    }
    return handle;
  }

  private void enable(MeasurementHandle handle, MeasurementSink sink, TargetDaemon d) {
    MetricRequest request = handle.request();
    Active a = new Active(handle, sink, d);
    active.put(handle.id(), a);
    JsonObject body = new DaemonRequests.MetricEnable(request.metric(), request.focus(), requester,
        samplePeriodMillis).toJson();
    track(vertx.eventBus().<JsonObject>request(Addresses.metricEnable(d.id), body, ENABLE_TIMEOUT).transform(ar -> {
      if (ar.failed()) {
        active.remove(handle.id());
        failed(a, Failures.of(d.id, ar.cause()));
        return Future.succeededFuture();
      }
      a.sinceMillis = ar.result().body().getLong("sinceMillis", -1L);
      a.metricId = ar.result().body().getLong("metricId");
      return a.released ? disable(a) : Future.succeededFuture();
    }));
  }

  private String combineOf(String metric) {
    return library.contains(metric) ? library.metric(metric).combine() : "sum";
  }

  @Override
  public void release(MeasurementHandle handle) {
    List<MeasurementHandle> parts = partsOf.remove(handle.id());
    if (parts != null) {
      parts.forEach(this::release);
      return;
    }
    Active a = active.remove(handle.id());
    if (a == null) {
      return;
    }
    a.released = true;
    if (a.metricId != null) {
      track(disable(a));
    }
  }

  /** The measurements still active (requested and not released; on each daemon, for one over several). */
  public int activeCount() {
    return active.size();
  }

  /**
   * Releases every measurement, waits until the daemons have answered every enable and disable, and stops
   * listening. After it completes, no metric this port enabled is left on any daemon that still runs.
   */
  public Future<Void> close() {
    List.copyOf(active.values()).forEach(a -> release(a.handle));
    leaving.run();
    return Future.join(List.copyOf(inflight)).<Void>mapEmpty()
        .eventually(this::sweep)
        .eventually(() -> Future.join(consumers.stream().map(MessageConsumer::unregister).toList()));
  }

  /**
   * Disables whatever each daemon still lists as enabled by this port: an enable whose reply was lost or
   * came after its timeout has no metric id here, but the daemon knows who asked for it.
   */
  private Future<?> sweep() {
    List<Future<?>> all = new ArrayList<>();
    for (TargetDaemon d : daemons.values()) {
      all.add(vertx.eventBus().<JsonObject>request(Addresses.metricsList(d.id), new JsonObject())
          .compose(reply -> Future.join(reply.body().getJsonArray("active", new io.vertx.core.json.JsonArray()).stream()
              .map(JsonObject.class::cast)
              .filter(m -> requester.equals(m.getString("requester")))
              .map(m -> vertx.eventBus().request(Addresses.metricDisable(d.id),
                  new DaemonRequests.MetricDisable(m.getLong("metricId")).toJson()).otherwiseEmpty())
              .toList()))
          .otherwiseEmpty());
    }
    return Future.join(all);
  }

  private Future<?> disable(Active a) {
    Long metricId = a.metricId;
    if (metricId == null) {
      return Future.succeededFuture();
    }
    return vertx.eventBus().request(Addresses.metricDisable(a.daemon.id), new DaemonRequests.MetricDisable(metricId)
        .toJson()).otherwiseEmpty();
  }

  private void track(Future<?> f) {
    inflight.add(f);
    f.onComplete(ar -> inflight.remove(f));
  }

  private TargetDaemon daemonFor(MetricRequest request) {
    ResourcePath process = request.focus().get(Hierarchy.PROCESS);
    if (process != null && !process.isRoot()) {
      for (TargetDaemon d : daemons.values()) {
        if (process.segments().get(0).equals(Long.toString(d.pid()))) {
          return d;
        }
      }
      throw new IllegalArgumentException("no daemon of this search measures " + process + " (daemons: " + daemons.keySet() + ")");
    }
    return daemons.values().iterator().next();
  }

  private boolean overEveryDaemon(MetricRequest request) {
    ResourcePath process = request.focus().get(Hierarchy.PROCESS);
    return daemons.size() > 1 && (process == null || process.isRoot());
  }

  private void sampled(TargetDaemon d, JsonObject sample) {
    long at = sample.getLong("atMillis", System.currentTimeMillis());
    Map<Long, JsonObject> byId = new LinkedHashMap<>();
    sample.getJsonArray("metrics", new io.vertx.core.json.JsonArray()).forEach(o -> {
      JsonObject m = (JsonObject) o;
      byId.put(m.getLong("metricId"), m);
    });
    List<Active> ours = active.values().stream().filter(a -> a.daemon == d && a.metricId != null
        && byId.containsKey(a.metricId)).toList();
    boolean idle = active.values().stream().noneMatch(a -> a.daemon == d);
    TargetDaemon.Spent spent = d.sampled(sample, idle, MIN_TARGET_CORES);
    ours.forEach(a -> a.samples++);
    boolean settling = ours.stream().anyMatch(a -> a.samples <= SETTLING_SAMPLES);
    double side = settling && !Double.isNaN(spent.agent()) ? spent.agent() : 0;
    sinks.forEach(s -> s.sideCost(at, side));
    if (!Double.isNaN(spent.recompiling())) {
      sinks.forEach(s -> s.recompiling(at, spent.recompiling()));
    }
    double attached = attached();
    if (!Double.isNaN(attached)) {
      sinks.forEach(s -> s.attached(at, attached));
    }
    double charged = settling ? spent.inProgramThreads() : spent.total();
    double totalPredicted = ours.stream().mapToDouble(a -> predicted(byId.get(a.metricId))).sum();
    for (Active a : ours) {
      JsonObject m = byId.get(a.metricId);
      Double value = m.getDouble("value");
      if (value == null) {
        continue;
      }
      double share = totalPredicted > 0 ? predicted(m) / totalPredicted : 1.0 / ours.size();
      double cost = charged * share;
      Long through = m.getLong("dataThroughMillis");
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
    return daemons.values().stream().mapToDouble(d -> d.attached(MIN_TARGET_CORES)).filter(f -> !Double.isNaN(f))
        .max().orElse(Double.NaN);
  }

  private static long intervalMillis(JsonObject sample) {
    return Math.round(sample.getLong("intervalNanos", 0L) / 1e6);
  }

  private static double predicted(JsonObject metricValue) {
    Double p = metricValue.getDouble("predictedCost");
    return p == null || !(p > 0) ? 0 : p;
  }

  private void targetGone(TargetDaemon d, String reason) {
    if (d.gone() != null) {
      return;
    }
    d.gone(reason);
    MeasurementFailure f = new MeasurementFailure(Kind.TARGET_GONE, "daemon " + d.id + ": " + reason);
    active.values().stream().filter(a -> a.daemon == d).forEach(a -> a.sink.failed(a.handle, f));
    onTargetGone.accept(d.id, reason);
  }

  private void failed(Active a, MeasurementFailure f) {
    a.sink.failed(a.handle, f);
    if (f.kind() == Kind.TARGET_GONE) {
      targetGone(a.daemon, f.reason());
    }
  }
}
