package dev.bottlenose.daemon.bus;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.Membership;
import dev.bottlenose.bus.Registry;
import dev.bottlenose.bus.protocol.DaemonEvents;
import dev.bottlenose.bus.protocol.DaemonReplies;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.daemon.session.CodePlaces;
import dev.bottlenose.daemon.session.MetricFileOutcome;
import dev.bottlenose.daemon.session.SessionException;
import dev.bottlenose.daemon.session.TargetSession;
import dev.bottlenose.model.CodeNames;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Serves one {@link TargetSession} on the event bus: request-reply per daemon, and published streams.
 *
 * <p>Every request names the member that sent it ({@link Membership#sender}); on a clustered bus one that
 * names none is refused. What a member enables (probes, sources, metrics) is its own: when the member
 * leaves the cluster or dies, the daemon removes all of it, so no measurement outlives the view that asked
 * for it. A daemon started for a service or a command is <em>held</em> by it ({@code hold}); when the last
 * holder lets go or leaves, {@code unheld} runs (the daemon process then stops, and its agent cleans up).
 */
public final class DaemonVerticle extends VerticleBase {
  private final TargetSession session;
  /** How this daemon announces itself and what its registry entry says; replaced when its node and state are known. */
  private volatile DaemonEvents.Announcement info;
  private final String id;
  private final String heldBy;
  private final Runnable unheld;
  private final Holdings holdings = new Holdings();
  private Registry registry;
  private Registry.Entry entry;
  private Runnable membershipListener = () -> {};

  /** A daemon nobody holds: it serves until it is stopped. */
  public DaemonVerticle(TargetSession session, String daemonId, String host) {
    this(session, daemonId, host, null, () -> {});
  }

  /**
   * A daemon held by the member {@code heldBy} (null: nobody, it serves until stopped); {@code unheld} runs
   * once when the last holder lets go or leaves the cluster.
   */
  public DaemonVerticle(TargetSession session, String daemonId, String host, String heldBy, Runnable unheld) {
    this.session = session;
    this.id = daemonId;
    this.heldBy = heldBy;
    this.unheld = unheld;
    this.info = new DaemonEvents.Announcement(daemonId, session.pid(), session.hello().mainClass(),
        session.hello().javaVersion(), host, session.state().name(), heldBy != null, null, null, null);
  }

  private final List<Future<Void>> registrations = new java.util.ArrayList<>();

  @Override
  public Future<?> start() {
    EventBus bus = vertx.eventBus();
    String local = Membership.self(vertx);
    info = info.withNode(local);
    if (heldBy != null) {
      holdings.hold(heldBy);
    }
    if (vertx.isClustered()) {
      membershipListener = Membership.onLeft(vertx, this::left);
      if (heldBy != null && !Membership.isMember(vertx, heldBy)) {
        vertx.runOnContext(v -> left(heldBy));
      }
    }
    serve(Addresses.resources(id), b -> resources(DaemonRequests.Resources.from(b)));
    serve(Addresses.codePath(id), b -> {
      String name = DaemonRequests.CodePath.from(b).name();
      if (!CodeNames.isJavaName(name)) {
        throw new IllegalArgumentException("'" + name + "' is a path or a focus, not a Java name such as com.acme.Cache::get");
      }
      return new DaemonReplies.CodePath(name, ResourcePath.parse(CodePlaces.path(session, name))).toJson();
    });
    serve(Addresses.enable(id), (b, node) -> {
      DaemonRequests.EnableProbe r = DaemonRequests.EnableProbe.from(b);
      DaemonReplies.Probe probe = Wire.probe(session.enable(r.focus().toString(), r.kind(), r.callee(),
          requester(r.requester(), node)));
      holdings.own(node, Holdings.Kind.PROBE, probe.probeId());
      return probe.toJson();
    });
    serve(Addresses.disable(id), b -> Wire.removed(session.disable(
        holdings.released(Holdings.Kind.PROBE, DaemonRequests.DisableProbe.from(b).probeId()))).toJson());
    serve(Addresses.watch(id), (b, node) -> {
      DaemonRequests.Watch r = DaemonRequests.Watch.from(b);
      DaemonReplies.Source source = Wire.source(session.watch(r.source(), requester(r.requester(), node)));
      holdings.own(node, Holdings.Kind.SOURCE, source.sourceId());
      return source.toJson();
    });
    serve(Addresses.unwatch(id), b -> Wire.source(session.unwatch(
        holdings.released(Holdings.Kind.SOURCE, DaemonRequests.Unwatch.from(b).sourceId()))).toJson());
    serve(Addresses.metricEnable(id), (b, node) -> {
      DaemonRequests.MetricEnable r = DaemonRequests.MetricEnable.from(b);
      DaemonReplies.ActiveMetric metric = Wire.activeMetric(session.enableMetric(r.metric(), r.focus(),
          requester(r.requester(), node), r.samplePeriodMillis()));
      holdings.own(node, Holdings.Kind.METRIC, metric.metricId());
      return metric.toJson();
    });
    serve(Addresses.metricDisable(id), b -> Wire.read(DaemonReplies.MetricDisabled::from, session.disableMetric(
        holdings.released(Holdings.Kind.METRIC, DaemonRequests.MetricDisable.from(b).metricId()))).toJson());
    serve(Addresses.metricPlan(id), b -> {
      DaemonRequests.MetricPlan r = DaemonRequests.MetricPlan.from(b);
      return Wire.read(DaemonReplies.MetricPlan::from, session.metricPlan(r.metric(), r.focus())).toJson();
    });
    serve(Addresses.hold(id), (b, node) -> hold(node, DaemonRequests.Hold.from(b).hold()).toJson());
    serve(Addresses.metricsList(id), b -> new DaemonReplies.MetricsList(session.metricList().stream()
        .map(m -> Wire.read(DaemonReplies.MetricInfo::from, m)).toList(),
        session.activeMetrics().stream().map(Wire::activeMetric).toList()).toJson());
    serve(Addresses.metricsAdd(id), b -> addMetrics(DaemonRequests.MetricsAdd.from(b)));
    serve(Addresses.ledger(id), b -> {
      TargetSession.Ledgers ledgers = session.ledgers();
      return new DaemonReplies.Ledger(Wire.objects(ledgers.probes()), Wire.objects(ledgers.sources())).toJson();
    });
    serve(Addresses.interval(id), b -> interval(DaemonRequests.Interval.from(b)).toJson());
    serve(Addresses.valuesHistory(id), b -> history(DaemonRequests.ValuesHistory.from(b)).toJson());
    serve(Addresses.classBytes(id), b -> Wire.read(DaemonReplies.ClassBytes::from, session.classBytes(
        DaemonRequests.ClassBytes.from(b).className())).toJson());
    serve(Addresses.callGraph(id), b -> {
      DaemonRequests.CallGraph r = DaemonRequests.CallGraph.from(b);
      return Wire.read(DaemonReplies.CallGraph::from, session.callGraph(r.path() == null ? null
          : r.path().toString(), r.limit(), r.graph(), r.parts())).toJson();
    });
    serve(Addresses.stacks(id), b -> {
      DaemonRequests.Stacks r = DaemonRequests.Stacks.from(b);
      return Wire.read(DaemonReplies.Stacks::from, session.stacks(r.graph(), r.max())).toJson();
    });
    serve(Addresses.holders(id), b -> {
      DaemonRequests.Holders r = DaemonRequests.Holders.from(b);
      return Wire.read(DaemonReplies.Holders::from, session.holders(r.looks(), r.intervalMillis())).toJson();
    });
    serveRecording();
    bus.consumer(Addresses.DAEMONS_LIST, this::list);
    // The status address answers last: a client that has its reply finds every other address of this daemon
    // registered in the cluster (registrations are asynchronous, and a call-graph request sent right after
    // the first status reply once found no handler).
    Future<Void> ready = Future.all(registrations)
        .compose(v -> serve(Addresses.status(id), b -> Wire.read(DaemonReplies.Status::from, session.status())
            .answeredBy(local, List.copyOf(holdings.holders())).toJson()));
    session.values().onSample(s -> bus.publish(Addresses.values(id), Wire.sample(s).toJson()));
    session.onChanges(c -> bus.publish(Addresses.changes(id), Wire.changes(c).toJson()));
    session.onEnd(reason -> vertx.runOnContext(v -> ended(reason)));
    return ready.compose(v -> Registry.open(vertx, Addresses.DAEMONS_MAP))
        .compose(r -> {
          registry = r;
          return r.keep(id, info.toJson());
        }).onSuccess(e -> {
          entry = e;
          bus.publish(Addresses.DAEMONS, info.withEvent(DaemonEvents.STARTED).toJson());
        });
  }

  @Override
  public Future<?> stop() {
    membershipListener.run();
    vertx.eventBus().publish(Addresses.DAEMONS, info.withEvent(DaemonEvents.STOPPED).toJson());
    return entry == null ? Future.succeededFuture() : entry.remove();
  }

  private void ended(String reason) {
    info = info.ended(session.state().name(), reason);
    JsonObject body = info.withEvent(DaemonEvents.EXITED).toJson();
    vertx.eventBus().publish(Addresses.exited(id), body);
    vertx.eventBus().publish(Addresses.DAEMONS, body);
    if (entry != null) {
      entry.update(info.toJson());
    }
  }

  /**
   * The registered daemons whose member is still in the cluster ({@link Registry#entries}): an entry of a daemon
   * killed a moment ago is left out before its time to live ends, and an entry that is not a daemon's JSON is ignored.
   */
  private void list(Message<Object> message) {
    if (registry == null) {
      message.fail(503, "daemon " + id + " is still starting");
      return;
    }
    registry.entries().onComplete(ar -> {
      if (ar.failed()) {
        message.fail(500, "reading the daemon registry failed: " + ar.cause().getMessage());
        return;
      }
      List<DaemonEvents.Announcement> daemons = ar.result().stream().map(DaemonEvents.Announcement::fromOrNull)
          .filter(java.util.Objects::nonNull).toList();
      message.reply(new DaemonReplies.Daemons(daemons).toJson());
    });
  }

  /** A member left or died: what it enabled is removed, and it holds this daemon no more. */
  private void left(String node) {
    List<Holdings.Owned> owned = holdings.left(node);
    if (!owned.isEmpty()) {
      vertx.executeBlocking(() -> {
        for (Holdings.Owned o : owned) {
          removeQuietly(o);
        }
        return null;
      }, false);
    }
    checkHeld();
  }

  private void removeQuietly(Holdings.Owned o) {
    try {
      switch (o.kind()) {
        case PROBE -> session.disable(o.id());
        case SOURCE -> session.unwatch(o.id());
        case METRIC -> session.disableMetric(o.id());
      }
    } catch (RuntimeException alreadyGone) {
      // removed by its owner, or with the target; nothing of it is left either way
    }
  }

  private DaemonReplies.Hold hold(String node, boolean hold) {
    if (hold) {
      if (!holdings.hold(node)) {
        throw new SessionException(SessionException.Failure.TARGET_EXITED, "daemon " + id + " is stopping: its last"
            + " holder let go");
      }
    } else {
      holdings.letGo(node);
      vertx.runOnContext(v -> checkHeld());
    }
    return new DaemonReplies.Hold(id, List.copyOf(holdings.holders()));
  }

  /** The members that hold this daemon now. */
  List<String> holders() {
    return List.copyOf(holdings.holders());
  }

  private void checkHeld() {
    if (heldBy != null && holdings.holders().isEmpty() && holdings.markUnheld()) {
      unheld.run();
    }
  }

  /**
   * What the ledger shows as the requester: the body's name for it, else the member that sent it (which
   * owns what it enabled either way).
   */
  private static String requester(String named, String node) {
    return named != null && !named.isBlank() ? named : "member " + node;
  }

  private JsonObject resources(DaemonRequests.Resources r) {
    return new DaemonReplies.Resources(session.resources(r.pathText(), r.depth()).stream().map(Wire::resource)
        .toList()).toJson();
  }

  private JsonObject addMetrics(DaemonRequests.MetricsAdd r) {
    MetricFileOutcome outcome = session.addMetrics(r.fileName(), r.text());
    if (outcome.hasErrors()) {
      throw new MetricFileRejected(outcome);
    }
    return Wire.metricsAdded(outcome).toJson();
  }

  private DaemonReplies.Interval interval(DaemonRequests.Interval r) {
    Long millis = r.millis();
    if (millis != null) {
      session.values().setInterval(Duration.ofMillis(millis));
    }
    return new DaemonReplies.Interval(session.values().interval().toMillis());
  }

  private DaemonReplies.ValuesHistory history(DaemonRequests.ValuesHistory r) {
    return new DaemonReplies.ValuesHistory(session.values().history(r.last()).stream().map(Wire::sample).toList());
  }

  /**
   * Serves {@code recording}: the target's JFR recording, the one reply that is not JSON but the file's bytes (a
   * buffer), with its times in the reply's headers ({@link DaemonReplies.Recording}).
   */
  private void serveRecording() {
    Handler<Message<Object>> h = message -> {
      JsonObject body = message.body() instanceof JsonObject j ? j : new JsonObject();
      if (vertx.isClustered() && Membership.sender(message) == null) {
        message.fail(400, "the request names no cluster member (header " + Membership.NODE_HEADER + ")");
        return;
      }
      vertx.executeBlocking(() -> {
        DaemonRequests.Recording r = DaemonRequests.Recording.from(body);
        var dump = session.recording(r.maxBytes());
        return new DaemonReplies.Recording(Buffer.buffer(dump.bytes()), dump.recordingStartMillis(),
            dump.dumpedAtMillis());
      }, false).onComplete(ar -> {
        if (ar.succeeded()) {
          message.reply(ar.result().bytes(), ar.result().replyOptions());
        } else {
          message.fail(code(ar.cause()), text(ar.cause()));
        }
      });
    };
    registrations.add(vertx.eventBus().consumer(Addresses.recording(id), h).completion());
  }

  /** Serves requests at {@code address}; the future completes once the cluster knows the registration. */
  private Future<Void> serve(String address, Function<JsonObject, JsonObject> handler) {
    return serve(address, (body, node) -> handler.apply(body));
  }

  /**
   * Serves requests at {@code address} with the sending member's node id; on a clustered bus a request that
   * names no member is refused (400).
   */
  private Future<Void> serve(String address, BiFunction<JsonObject, String, JsonObject> handler) {
    Handler<Message<Object>> h = message -> {
      JsonObject body = message.body() instanceof JsonObject j ? j : new JsonObject();
      String node = vertx.isClustered() ? Membership.sender(message) : Membership.LOCAL;
      if (node == null) {
        message.fail(400, "the request names no cluster member (header " + Membership.NODE_HEADER + ")");
        return;
      }
      Callable<JsonObject> work = () -> handler.apply(body, node);
      vertx.executeBlocking(work, false).onComplete(ar -> {
        if (ar.succeeded()) {
          message.reply(ar.result());
        } else if (ar.cause() instanceof MetricFileRejected r) {
          message.fail(400, Wire.metricsAdded(r.outcome).toJson().put("message", r.getMessage()).encode());
        } else {
          message.fail(code(ar.cause()), text(ar.cause()));
        }
      });
    };
    Future<Void> registered = vertx.eventBus().consumer(address, h).completion();
    registrations.add(registered);
    return registered;
  }

  /** A metric file with errors: the failure text is the outcome as JSON, each error with line and column. */
  private static final class MetricFileRejected extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient MetricFileOutcome outcome;

    MetricFileRejected(MetricFileOutcome outcome) {
      super(outcome.fileName() + " has " + outcome.errors().size() + " error(s):\n" + outcome.errorText());
      this.outcome = outcome;
    }
  }

  private static int code(Throwable t) {
    if (t instanceof SessionException e) {
      return e.failure().code();
    }
    return t instanceof ClassCastException || t instanceof IllegalArgumentException ? 400 : 500;
  }

  private static String text(Throwable t) {
    if (t instanceof ClassCastException) {
      return "a field has the wrong type: " + t.getMessage();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
