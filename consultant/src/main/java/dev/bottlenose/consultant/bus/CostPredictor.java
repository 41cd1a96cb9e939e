package dev.bottlenose.consultant.bus;

import dev.bottlenose.consultant.CostPrediction;
import dev.bottlenose.consultant.MeasurementFailure;
import dev.bottlenose.consultant.MeasurementFailure.Kind;
import dev.bottlenose.consultant.MetricRequest;
import dev.bottlenose.metrics.Calibration;
import dev.bottlenose.metrics.MetricCompiler;
import dev.bottlenose.metrics.MetricException;
import dev.bottlenose.metrics.MetricLibrary;
import dev.bottlenose.metrics.ProbePlan;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.stream.Stream;

/**
 * What measuring a metric–focus pair on a daemon's target is expected to cost, as a fraction of the
 * target's CPU while it runs and once for going in and out.
 *
 * <p>Cost prediction: a built-in metric is compiled here with the built-in library, a metric added to the daemon
 * at run time by the daemon ({@code metric.plan}, asked once per metric and focus), against the daemon's
 * calibration (its cpu samples at the port's sampling period), and its cost model is read at {@value
 * #REFERENCE_EVENTS_PER_SECOND} events per second (the daemon's own reference rate, {@code
 * predictedCostAt100PerSecond}). That is a fraction of one CPU;
 * divided by the cores the target used in the last sample, but at least one, it is a fraction of the
 * target's CPU, the unit of the budget. A target using less than a core leaves the rest of that CPU idle,
 * so its overhead is charged against one CPU; otherwise a nearly idle program could not be measured at all.
 * A plan that records file and socket reads and writes is read at the target's rate of read and write system
 * calls instead, when the daemon reports it and it is higher ({@link TargetDaemon#ioCallsPerSecond}): each call
 * is an event, and a program doing a million small reads a second made such a plan cost 0.9 of its CPU where
 * 100 events a second predicted 0.1%. Likewise a plan that records parks, waits or monitor entries is read at the
 * rate the program's threads park, wait and block ({@link TargetDaemon#waitsPerSecond}): lock waiting counted
 * exactly in a method of a program whose four threads shared a {@code ReentrantLock} was predicted at 0.03% and
 * cost 2–7% of its CPU, and went in before the samples that needed a fraction of that.
 *
 * <p>One-time cost: a metric that inserts probes retransforms the classes of its focus's {@code /Code} part
 * twice (in, and later out), and each time the JIT throws away the compiled code of the focus's methods and of
 * every method that compiled one of them in, and compiles them again. It is predicted as twice what the JIT
 * took to compile those so far ({@link #thrownAway}: the daemon's {@code /VM/JIT} resources, {@link
 * CompileTimes}, for the focus's methods and its callers within HotSpot's inlining depth on the daemon's
 * sampled call graph), over the target's cores as above: fraction of the target's CPU × seconds. A loop
 * compiled before the attach (on-stack replacement, which starting JFR does not replace, so it is not listed)
 * is priced by what it calls: retransforming the root of every worker's stack once recompiled everything
 * inlined into it, 1.1 s of the JIT's CPU in a 30 s search at 1%. What a start was seen to cost is learned
 * per kind ({@code OneTimeBucket}) and counts when it is more. Until the daemon's first answers such a
 * prediction is pending.
 */
final class CostPredictor {
  static final double REFERENCE_EVENTS_PER_SECOND = 100;
  /** Probes going in and, later, out: the focus's compiled code is thrown away twice. */
  static final double RECOMPILES = 2;

  private final Vertx vertx;
  private final MetricLibrary library = MetricLibrary.builtin();
  /** The period the port's cpu samples are taken at, in ms; null: the agent's configured one (its calibration's). */
  private final Long samplePeriodMillis;

  CostPredictor(Vertx vertx, Long samplePeriodMillis) {
    this.vertx = vertx;
    this.samplePeriodMillis = samplePeriodMillis;
  }

  /** Pending or failed if one of them is, else the largest cost and the largest one-time cost. */
  static CostPrediction largest(List<CostPrediction> predictions) {
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

  CostPrediction predict(TargetDaemon d, MetricRequest request) {
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
      double cores = Math.max(TargetDaemon.MIN_CORES, d.cores());
      Calibration calibration = d.calibration();
      double period = samplePeriodMillis == null ? calibration.samplePeriodNanos() : samplePeriodMillis * 1e6;
      double oneCpu = plan.predictedCost(calibration, period)
          .fractionAt(eventsPerSecond(plan, d.ioCallsPerSecond(), d.waitsPerSecond()));
      if (!retransforms(plan)) {
        return CostPrediction.of(oneCpu / cores);
      }
      ResourcePath code = request.focus().get(Hierarchy.CODE);
      CompileTimes compiled = d.compileTimes(vertx);
      TargetDaemon.Reach reach = d.reach(vertx, code);
      if (compiled == null || reach == null) {
        return CostPrediction.pending();
      }
      return CostPrediction.of(oneCpu / cores, RECOMPILES * thrownAway(code, compiled, reach) / cores);
    } catch (MetricException e) {
      return CostPrediction.failed(new MeasurementFailure(Kind.METRIC_UNAVAILABLE, e.getMessage()));
    }
  }

  /**
   * What the JIT takes to compile again what retransforming {@code code}'s classes throws away (seconds of
   * one CPU): the focus's compiled methods and its callers within the inlining depth (those that may have
   * compiled its methods in); and when one of those was on the sampled stacks but not compiled since the
   * attach, it may be a loop compiled before it (on-stack replacement) whose new compilation takes in the
   * focus's callees as well, so theirs is added.
   */
  static double thrownAway(ResourcePath code, CompileTimes compiled, TargetDaemon.Reach reach) {
    double seconds = compiled.within(code) + compiled.of(reach.callers());
    boolean olderLoop = Stream.concat(reach.sampled().stream(), reach.callers().stream())
        .anyMatch(m -> !compiled.lists(m));
    return seconds + (olderLoop ? compiled.of(reach.callees()) : 0);
  }

  /**
   * The rate to read {@code plan}'s cost model at: {@value #REFERENCE_EVENTS_PER_SECOND} a second per item, or,
   * for a plan watching I/O events, the target's I/O calls shared among its I/O items when that is more, and for
   * a plan watching parks, waits or monitor entries, the program's waits shared among those items. Each call or
   * wait is one event of one item (a rate that is not known is NaN).
   */
  static double eventsPerSecond(ProbePlan plan, double ioCallsPerSecond, double waitsPerSecond) {
    int io = plan.eventItemsAbout(Hierarchy.IO);
    int sync = plan.eventItemsAbout(Hierarchy.SYNC_OBJECTS);
    double rate = io > 0 ? ioCallsPerSecond / io : sync > 0 ? waitsPerSecond / sync : Double.NaN;
    return Double.isNaN(rate) ? REFERENCE_EVENTS_PER_SECOND : Math.max(REFERENCE_EVENTS_PER_SECOND, rate);
  }

  /** How the values of a metric measured on several daemons combine ({@code sum} unless the metric says otherwise). */
  String combineOf(String metric) {
    return library.contains(metric) ? library.metric(metric).combine() : "sum";
  }

  /** Whether measuring {@code plan} inserts probes (and so retransforms classes), not only watches sources. */
  private static boolean retransforms(ProbePlan plan) {
    return plan.items().stream().anyMatch(i -> !i.type().equals("source"));
  }
}
