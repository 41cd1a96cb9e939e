package dev.bottlenose.consultant.bus;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.Membership;
import dev.bottlenose.bus.protocol.BadField;
import dev.bottlenose.bus.protocol.DaemonEvents;
import dev.bottlenose.bus.protocol.DaemonReplies;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.consultant.MetricRequest;
import dev.bottlenose.metrics.Calibration;
import dev.bottlenose.metrics.ProbePlan;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What the port knows about one daemon: its target's pid and calibration, how busy the target is, whether it is gone. */
final class TargetDaemon {
  /**
   * The fewest cores a target's CPU is counted as: a target using less than a core leaves the rest of that
   * CPU idle, so overhead is charged against one CPU; otherwise a nearly idle program could not be measured.
   */
  static final double MIN_CORES = 1;
  final String id;
  private volatile Calibration calibration;
  private volatile long pid = -1;
  /** The daemon's cluster member (node id), null before its status answered. */
  private volatile String node;
  private volatile double cores = Double.NaN;
  private volatile double ioCallsPerSecond = Double.NaN;
  private volatile double waitsPerSecond = Double.NaN;
  private volatile double idleNanosPerSecond = Double.NaN;
  /** The agent's cost in every sample, smoothed, and the lowest it has been: what being attached costs at most. */
  private double allNanosPerSecond = Double.NaN;
  private volatile double lowestNanosPerSecond = Double.NaN;
  private volatile double idleSideNanosPerSecond = Double.NaN;
  /** The daemon process's own CPU, smoothed; NaN before a sample told it. */
  private volatile double daemonNanosPerSecond = Double.NaN;
  /** Whether the daemon is served in this process (its status names this process's member). */
  private volatile boolean inThisProcess;
  private volatile String gone;
  private final Promise<Void> goneSignal = Promise.promise();
  private boolean statusAsked;
  /** How long the JIT took per method, refreshed in the background; null before the first answer. */
  private volatile CompileTimes compileTimes;
  private long compileTimesAtMillis = Long.MIN_VALUE / 2;
  private boolean compileTimesAsked;
  static final long COMPILE_TIMES_MAX_AGE_MILLIS = 5_000;
  /** Per /Code path: what the call graph says of it, and when answered; asked in the background. */
  private final Map<String, Known> reaches = new HashMap<>();
  private final Set<String> reachesAsked = new HashSet<>();
  /** How many of a path's methods most often on top of the stack are asked for. */
  static final int REACH_HOT_LIMIT = 100;
  /**
   * How old a path's call graph may be before it is asked again: the daemon halves its counts every 30 s, so what
   * calls what changes on that scale, while the cost predictor asks it of every node it weighs; refreshed every 5 s,
   * as the compile times are, it was 9 to 15 requests a second, most of the traffic between a search and its daemon.
   */
  static final long REACH_MAX_AGE_MILLIS = 15_000;
  /** Per metric and focus: the daemon's plan for a metric the consultant does not know. */
  private final Map<String, Plan> plans = new HashMap<>();
  private final Set<String> plansAsked = new HashSet<>();
  /** Below this many execution samples the call graph says nothing about a path. */
  static final long MIN_SAMPLES = 20;

  TargetDaemon(String id) {
    this.id = id;
  }

  /** Asks the daemon's status once (again after a failure); answers whether pid and calibration are known. */
  synchronized boolean ready(Vertx vertx) {
    if (calibration != null) {
      return true;
    }
    if (!statusAsked) {
      statusAsked = true;
      vertx.eventBus().<JsonObject>request(Addresses.status(id), new JsonObject()).onComplete(ar -> {
        synchronized (this) {
          statusAsked = false;
          DaemonReplies.Status s = ar.succeeded() ? read(DaemonReplies.Status::from, ar.result().body()) : null;
          if (s != null) {
            pid = s.pid();
            node = s.node();
            inThisProcess = Membership.self(vertx).equals(s.node());
            calibration = Calibration.fromJson(s.calibration().getMap());
          }
        }
      });
    }
    return false;
  }

  Calibration calibration() {
    return calibration;
  }

  /**
   * The daemon's latest JIT compile times ({@link CompileTimes}), asked again in the background when older
   * than {@value #COMPILE_TIMES_MAX_AGE_MILLIS} ms; null until the first answer (none if the daemon cannot tell).
   */
  synchronized CompileTimes compileTimes(Vertx vertx) {
    long now = System.currentTimeMillis();
    if (!compileTimesAsked && now - compileTimesAtMillis > COMPILE_TIMES_MAX_AGE_MILLIS) {
      compileTimesAsked = true;
      JsonObject body = new DaemonRequests.Resources(CompileTimes.JIT, 2).toJson();
      vertx.eventBus().<JsonObject>request(Addresses.resources(id), body).onComplete(ar -> {
        synchronized (this) {
          compileTimesAsked = false;
          compileTimesAtMillis = System.currentTimeMillis();
          DaemonReplies.Resources answer = ar.succeeded() ? read(DaemonReplies.Resources::from, ar.result().body())
              : null;
          compileTimes = answer != null ? CompileTimes.of(answer) : compileTimes == null ? CompileTimes.NONE
              : compileTimes;
        }
      });
    }
    return compileTimes;
  }

  /**
   * What the daemon's call graph says of a /Code path: the methods inside it seen on top of the stack, and the
   * methods outside it within the JIT's inlining depth above and below it; nothing when the daemon cannot tell
   * (or took fewer than {@value #MIN_SAMPLES} samples).
   */
  record Reach(List<ResourcePath> sampled, List<ResourcePath> callers, List<ResourcePath> callees) {
    static final Reach NONE = new Reach(List.of(), List.of(), List.of());

    static Reach of(DaemonReplies.CallGraph graph) {
      if (graph.samples() < MIN_SAMPLES) {
        return NONE;
      }
      return new Reach(graph.hot().stream().map(DaemonReplies.HotMethod::method).toList(),
          graph.callers().stream().map(DaemonReplies.GraphChild::path).toList(),
          graph.callees().stream().map(DaemonReplies.GraphChild::path).toList());
    }
  }

  /**
   * The daemon's call graph at {@code code} (a /Code path), asked again in the background when older than
   * {@value #REACH_MAX_AGE_MILLIS} ms; null until the first answer.
   */
  synchronized Reach reach(Vertx vertx, ResourcePath code) {
    String key = code.toString();
    Known known = reaches.get(key);
    long now = System.currentTimeMillis();
    if (!reachesAsked.contains(key) && (known == null || now - known.atMillis() > REACH_MAX_AGE_MILLIS)) {
      reachesAsked.add(key);
      JsonObject body = new DaemonRequests.CallGraph(code, REACH_HOT_LIMIT, DaemonRequests.CallGraph.DEFAULT_GRAPH,
          Set.of(DaemonRequests.CallGraph.Part.HOT, DaemonRequests.CallGraph.Part.REACH)).toJson();
      vertx.eventBus().<JsonObject>request(Addresses.callGraph(id), body).onComplete(ar -> {
        synchronized (this) {
          reachesAsked.remove(key);
          DaemonReplies.CallGraph graph = ar.succeeded() ? read(DaemonReplies.CallGraph::from, ar.result().body()) : null;
          reaches.put(key, new Known(graph == null ? Reach.NONE : Reach.of(graph), System.currentTimeMillis()));
        }
      });
    }
    return known == null ? null : known.reach();
  }

  private record Known(Reach reach, long atMillis) {}

  long pid() {
    return pid;
  }

  /** A metric's plan as the daemon compiled it, or why it could not. */
  record Plan(ProbePlan plan, String failure) {}

  /**
   * The plan of {@code request}'s metric at its focus as this daemon compiles it ({@code metric.plan}), for a
   * metric the consultant does not know (one added to the daemon at run time); asked once in the background,
   * null until the answer.
   */
  synchronized Plan plan(Vertx vertx, MetricRequest request) {
    String key = request.metric() + " " + request.focus();
    Plan known = plans.get(key);
    if (known == null && plansAsked.add(key)) {
      JsonObject body = new DaemonRequests.MetricPlan(request.metric(), request.focus()).toJson();
      vertx.eventBus().<JsonObject>request(Addresses.metricPlan(id), body).onComplete(ar -> {
        synchronized (this) {
          plansAsked.remove(key);
          if (ar.succeeded()) {
            try {
              plans.put(key, new Plan(ProbePlan.fromJson(DaemonReplies.MetricPlan.from(ar.result().body()).plan()
                  .encode()), null));
            } catch (BadField e) {
              plans.put(key, new Plan(null, "daemon " + id + " answered metric.plan with a bad field: " + e.getMessage()));
            }
          } else if (ar.cause() instanceof ReplyException r && r.failureType() == ReplyFailure.RECIPIENT_FAILURE) {
            plans.put(key, new Plan(null, r.getMessage()));
          }
        }
      });
    }
    return known;
  }

  String node() {
    return node;
  }

  /** The target's CPU use in cores over the last sample, NaN before the first. */
  double cores() {
    return cores;
  }

  /**
   * The target's file and socket read and write system calls per second (the last interval's, or more while
   * a higher rate is fading); NaN while the daemon has not told.
   */
  double ioCallsPerSecond() {
    return ioCallsPerSecond;
  }

  /**
   * How often the program's threads park, wait or block entering a monitor, per second (the agent's {@code
   * threadWaits}: the last interval's, or more while a higher rate is fading); NaN while the agent has not told.
   */
  double waitsPerSecond() {
    return waitsPerSecond;
  }

  /**
   * The agent's cost while none of the search's metrics runs, ns per second; NaN before the first idle sample.
   * The idle samples are the first after the attach, when the agent's code still runs in the interpreter and its
   * first listings are made (on an idle program its cost there was about twice what it was later, with metrics
   * running); metrics only add to the agent's cost, so the lowest it has been since, smoothed as the idle cost
   * is, bounds it too, and the lower of the two is taken.
   */
  double idleNanosPerSecond() {
    double idle = idleNanosPerSecond;
    double lowest = lowestNanosPerSecond;
    return Double.isNaN(idle) || Double.isNaN(lowest) ? idle : Math.min(idle, lowest);
  }

  /**
   * What being attached costs this target while none of the search's metrics runs (the agent's and JFR's
   * threads, and probes of others' metrics), as a fraction of its CPU in the last sample (at least {@code
   * minCores}); NaN before the first idle sample.
   */
  double attached(double minCores) {
    return ofTargetCpu(idleNanosPerSecond(), minCores);
  }

  /** {@code nanosPerSecond} of CPU as a fraction of this target's (at least {@code minCores}); NaN before a sample. */
  double ofTargetCpu(double nanosPerSecond, double minCores) {
    return nanosPerSecond / (Math.max(minCores, cores) * 1e9);
  }

  /**
   * The daemon process's own CPU, ns per second, smoothed; NaN while no sample has told it, and for a daemon served
   * in this process (an {@code EmbeddedDaemon}), whose CPU is this process's, counted as the searcher's.
   */
  double daemonNanosPerSecond() {
    return inThisProcess ? Double.NaN : daemonNanosPerSecond;
  }

  /**
   * One sample's measuring cost above the idle baseline, as fractions of the target's CPU: the probes'
   * executions ({@code probes}), the JFR events recorded only for watched sources, committed on the
   * program's threads ({@code events}), and the agent's own threads ({@code agent}, which also run the
   * retransformations that insert and remove probes), and the JIT compiler threads and VM Thread above
   * their idle rate ({@code recompiling}, 0 when the daemon does not report them). NaN when the sample
   * does not tell.
   */
  record Spent(double probes, double events, double agent, double recompiling) {
    static final Spent UNKNOWN = new Spent(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    static final Spent NONE = new Spent(0, 0, 0, 0);

    double total() {
      return probes + events + agent;
    }

    /** What the program's own threads paid: the probes' executions and the events' commits. */
    double inProgramThreads() {
      return probes + events;
    }
  }

  /**
   * Takes in one sample's {@code cost}; answers what measuring cost above the idle baseline (the agent's
   * cost while none of the search's metrics ran) as fractions of the target's CPU (at least {@code minCores}).
   */
  Spent sampled(DaemonEvents.Sample sample, boolean idle, double minCores) {
    DaemonEvents.Cost cost = sample.cost();
    long interval = sample.intervalNanos();
    if (interval <= 0) {
      return Spent.UNKNOWN;
    }
    cores = (double) cost.processCpuNanos() / interval;
    ioCallsPerSecond = fading(ioCallsPerSecond, cost.ioCalls(), interval);
    waitsPerSecond = fading(waitsPerSecond, sample.vm().get("threadWaits"), interval);
    double probes = cost.probeNanos() * 1e9 / interval;
    double agent = cost.agentCpuNanos() * 1e9 / interval;
    double events = cost.eventNanos() * 1e9 / interval;
    if (cost.daemonCpuNanos() != null) {
      daemonNanosPerSecond = smoothed(daemonNanosPerSecond, cost.daemonCpuNanos() * 1e9 / interval);
    }
    Long sideNanos = cost.sideCpuNanos();
    double side = sideNanos == null || sideNanos < 0 ? Double.NaN : sideNanos * 1e9 / interval;
    allNanosPerSecond = smoothed(allNanosPerSecond, probes + agent);
    lowestNanosPerSecond = Double.isNaN(lowestNanosPerSecond) ? allNanosPerSecond
        : Math.min(lowestNanosPerSecond, allNanosPerSecond);
    if (idle) {
      idleNanosPerSecond = smoothed(idleNanosPerSecond, probes + agent);
      idleSideNanosPerSecond = Double.isNaN(side) ? idleSideNanosPerSecond : smoothed(idleSideNanosPerSecond, side);
      return Spent.NONE;
    }
    double atRest = idleNanosPerSecond();
    double base = Double.isNaN(atRest) ? 0 : atRest;
    double sideBase = Double.isNaN(idleSideNanosPerSecond) ? 0 : idleSideNanosPerSecond;
    double cpu = Math.max(minCores, cores) * 1e9;
    double recompiling = Double.isNaN(side) ? 0 : Math.max(0, side - sideBase) / cpu;
    return new Spent(probes / cpu, events / cpu, Math.max(0, agent - base) / cpu, recompiling);
  }

  /**
   * A rate that follows a higher one at once and a lower one slowly: {@code count} per {@code intervalNanos}, or
   * more while a higher {@code rate} before it fades; {@code rate} unchanged when the count is not known (null).
   */
  private static double fading(double rate, Long count, long intervalNanos) {
    if (count == null) {
      return rate;
    }
    double now = count * 1e9 / intervalNanos;
    return Double.isNaN(rate) ? now : Math.max(now, smoothed(rate, now));
  }

  private static double smoothed(double average, double sample) {
    return Double.isNaN(average) ? sample : 0.7 * average + 0.3 * sample;
  }

  /**
   * {@code body} read into its record, or null when a field is bad (a daemon of another version): the request
   * then counts as failed, as one the daemon refused would.
   */
  private static <T> T read(java.util.function.Function<Object, T> from, JsonObject body) {
    try {
      return from.apply(body);
    } catch (BadField e) {
      return null;
    }
  }

  String gone() {
    return gone;
  }

  void gone(String reason) {
    gone = reason;
    goneSignal.tryComplete();
  }

  /** Completes when the daemon is gone (its target exited, or it left the cluster): nothing it owes will come. */
  Future<Void> whenGone() {
    return goneSignal.future();
  }
}
