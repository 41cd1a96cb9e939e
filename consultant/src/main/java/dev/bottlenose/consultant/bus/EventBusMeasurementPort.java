package dev.bottlenose.consultant.bus;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.Membership;
import dev.bottlenose.bus.protocol.BadField;
import dev.bottlenose.bus.protocol.DaemonEvents;
import dev.bottlenose.bus.protocol.DaemonReplies;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.consultant.CostPrediction;
import dev.bottlenose.consultant.MeasurementFailure;
import dev.bottlenose.consultant.MeasurementFailure.Kind;
import dev.bottlenose.consultant.MeasurementHandle;
import dev.bottlenose.consultant.MeasurementPort;
import dev.bottlenose.consultant.MeasurementSink;
import dev.bottlenose.consultant.MetricRequest;
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
 * <p>It is the bus client and the router: what a measurement costs is predicted by a {@link CostPredictor},
 * and what each daemon's samples show it cost is shared out among the measurements by a {@link CostAttribution}.
 */
public final class EventBusMeasurementPort implements MeasurementPort {
  private volatile Runnable onSampled = () -> {};
  private final Vertx vertx;
  /** Enabling a metric on a whole package retransforms every class in it: give the daemon time. */
  private static final DeliveryOptions ENABLE_TIMEOUT = new DeliveryOptions().setSendTimeout(180_000);
  private final String requester;
  private final Long samplePeriodMillis;
  private final Map<String, TargetDaemon> daemons = new LinkedHashMap<>();
  private final CostPredictor predictor;
  private final CostAttribution attribution;
  private final Map<Long, Active> active = new ConcurrentHashMap<>();
  private final Map<Long, List<MeasurementHandle>> partsOf = new ConcurrentHashMap<>();
  private final Set<MeasurementSink> sinks = ConcurrentHashMap.newKeySet();
  /** Requests not answered yet, with the daemon each went to. */
  private final Map<Future<?>, TargetDaemon> inflight = new ConcurrentHashMap<>();
  private final List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();
  private final AtomicLong nextHandle = new AtomicLong(1);
  private volatile BiConsumer<String, String> onTargetGone = (daemon, reason) -> { };

  /** A measurement enabled on one daemon, and what its samples have shown so far. */
  static final class Active {
    final MeasurementHandle handle;
    final MeasurementSink sink;
    final TargetDaemon daemon;
    volatile Long metricId;
    volatile long sinceMillis = -1;
    /** How many probes the daemon inserted for it (0: it only watches the target's events); -1 until enabled. */
    volatile int probes = -1;
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
    this.predictor = new CostPredictor(vertx, samplePeriodMillis);
    this.attribution = new CostAttribution(daemons.values(), sinks);
    for (String id : daemonIds) {
      TargetDaemon d = new TargetDaemon(id);
      daemons.put(id, d);
      consumers.add(vertx.eventBus().<JsonObject>consumer(Addresses.values(id), m -> {
        DaemonEvents.Sample sample = read(DaemonEvents.Sample::from, m.body());
        if (sample != null) {
          attribution.sampled(d, sample, active.values());
          onSampled.run();
        }
      }));
      consumers.add(vertx.eventBus().<JsonObject>consumer(Addresses.exited(id), m -> {
        DaemonEvents.Announcement exited = read(DaemonEvents.Announcement::from, m.body());
        targetGone(d, exited == null || exited.endReason() == null ? "the target exited" : exited.endReason());
      }));
      d.ready(vertx);
    }
    if (vertx.isClustered()) {
      leaving = Membership.onLeft(vertx, node -> daemons.values().stream().filter(d -> node.equals(d.node()))
          .forEach(d -> targetGone(d, DAEMON_LOST + ": it left the cluster (killed, or its host unreachable)")));
    }
  }

  /**
   * Called on the event loop after each daemon's sample has been handed to the measurements it carries values
   * for, so that the search can weigh them at once rather than at its next periodic step.
   */
  public void onSampled(Runnable listener) {
    this.onSampled = listener;
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
      return CostPredictor.largest(daemons.values().stream().map(d -> predictor.predict(d, request)).toList());
    }
    try {
      return predictor.predict(daemonFor(request), request);
    } catch (IllegalArgumentException e) {
      return CostPrediction.failed(new MeasurementFailure(Kind.FOCUS_UNKNOWN, e.getMessage()));
    }
  }

  @Override
  public MeasurementHandle request(MetricRequest request, double predictedCost, MeasurementSink sink) {
    MeasurementHandle handle = new MeasurementHandle(nextHandle.getAndIncrement(), request);
    sinks.add(sink);
    if (overEveryDaemon(request)) {
      Combined combined = new Combined(handle, sink, predictor.combineOf(request.metric()));
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
    track(d, vertx.eventBus().<JsonObject>request(Addresses.metricEnable(d.id), body, ENABLE_TIMEOUT).transform(ar -> {
      if (ar.failed()) {
        active.remove(handle.id());
        failed(a, Failures.of(d.id, ar.cause()));
        return Future.succeededFuture();
      }
      DaemonReplies.ActiveMetric enabled;
      try {
        enabled = DaemonReplies.ActiveMetric.from(ar.result().body());
      } catch (BadField e) {
        active.remove(handle.id());
        failed(a, new MeasurementFailure(Kind.METRIC_UNAVAILABLE, "daemon " + d.id + " answered metric.enable with a"
            + " bad field: " + e.getMessage()));
        return Future.succeededFuture();
      }
      a.sinceMillis = enabled.sinceMillis();
      a.probes = enabled.probes();
      a.metricId = enabled.metricId();
      return a.released ? disable(a) : Future.succeededFuture();
    }));
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
      track(a.daemon, disable(a));
    }
  }

  /** The measurements still active (requested and not released; on each daemon, for one over several). */
  public int activeCount() {
    return active.size();
  }

  /**
   * Releases every measurement, waits until the daemons have answered every enable and disable, and stops
   * listening. After it completes, no metric this port enabled is left on any daemon that still runs. What a gone
   * daemon owes (its target exited, or it left the cluster, where a request can wait out its time-out of up to
   * 180 s) is not waited for: its agent removes everything when the daemon's connection ends.
   */
  public Future<Void> close() {
    List.copyOf(active.values()).forEach(a -> release(a.handle));
    leaving.run();
    List<Future<?>> answers = new ArrayList<>();
    inflight.forEach((f, d) -> answers.add(Future.any(f, d.whenGone())));
    return Future.join(answers).<Void>mapEmpty()
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
      if (d.gone() != null) {
        continue;
      }
      all.add(vertx.eventBus().<JsonObject>request(Addresses.metricsList(d.id), new JsonObject())
          .compose(reply -> Future.join(DaemonReplies.MetricsList.from(reply.body()).active().stream()
              .filter(m -> requester.equals(m.requester()))
              .map(m -> vertx.eventBus().request(Addresses.metricDisable(d.id),
                  new DaemonRequests.MetricDisable(m.metricId()).toJson()).otherwiseEmpty())
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

  /**
   * A published message read into its record, or null when a field is bad (a daemon of another version): the
   * message is passed over, as one that never came.
   */
  private static <T> T read(java.util.function.Function<Object, T> from, JsonObject body) {
    try {
      return from.apply(body);
    } catch (BadField e) {
      return null;
    }
  }

  private void track(TargetDaemon d, Future<?> f) {
    inflight.put(f, d);
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

  private void targetGone(TargetDaemon d, String reason) {
    if (d.gone() != null) {
      return;
    }
    d.gone(reason);
    // told first: a step that takes in the failures below must already know why the search ends
    onTargetGone.accept(d.id, reason);
    MeasurementFailure f = new MeasurementFailure(Kind.TARGET_GONE, "daemon " + d.id + ": " + reason);
    active.values().stream().filter(a -> a.daemon == d).forEach(a -> a.sink.failed(a.handle, f));
  }

  private void failed(Active a, MeasurementFailure f) {
    a.sink.failed(a.handle, f);
    if (f.kind() == Kind.TARGET_GONE) {
      targetGone(a.daemon, f.reason());
    }
  }
}
