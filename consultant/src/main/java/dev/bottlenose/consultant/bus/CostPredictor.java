package dev.bottlenose.consultant.bus;

import dev.bottlenose.consultant.CostPrediction;
import dev.bottlenose.consultant.MeasurementFailure;
import dev.bottlenose.consultant.MeasurementFailure.Kind;
import dev.bottlenose.consultant.MetricRequest;
import dev.bottlenose.metrics.MetricCompiler;
import dev.bottlenose.metrics.MetricException;
import dev.bottlenose.metrics.MetricLibrary;
import dev.bottlenose.metrics.ProbePlan;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.Vertx;
import java.util.List;

/**
 * What measuring a metric–focus pair on a daemon's target is expected to cost, as a fraction of the
 * target's CPU while it runs and once for going in and out.
 *
 * <p>Cost prediction: a built-in metric is compiled here with the built-in library, a metric added to the daemon
 * at run time by the daemon ({@code metric.plan}, asked once per metric and focus), against the daemon's
 * calibration, and its cost model is read at {@value #REFERENCE_EVENTS_PER_SECOND} events per second
 * (the daemon's own reference rate, {@code predictedCostAt100PerSecond}). That is a fraction of one CPU;
 * divided by the cores the target used in the last sample, but at least one, it is a fraction of the
 * target's CPU, the unit of the budget. A target using less than a core leaves the rest of that CPU idle,
 * so its overhead is charged against one CPU; otherwise a nearly idle program could not be measured at all.
 *
 * <p>One-time cost: a metric that inserts probes retransforms the classes of its focus's {@code /Code} part
 * twice (in, and later out), and each time the JIT compiles their methods again, with everything it had
 * inlined into them. It is predicted as twice the larger of what the JIT took to compile the focus's
 * methods so far (the daemon's {@code /VM/JIT} resources, {@link CompileTimes}) and the share of the
 * sampled stacks that go through the focus (the daemon's call graph) times what it took to compile the
 * methods of the hot packages (those on at least 5% of the stacks; every compilation since the attach,
 * the JDK's and JFR's included, priced a one CPU-second insertion at fifteen); over the target's cores as
 * above: fraction of the target's CPU × seconds. The second covers a loop compiled before the attach
 * (on-stack replacement, which starting JFR does not replace, so it is not listed): the root of every worker's stack, its class looked free, and retransforming it
 * recompiled everything inlined into it, 1.1 s of the JIT's CPU in a 30 s search at 1%. Until the
 * daemon's first answers such a prediction is pending.
 */
final class CostPredictor {
  static final double REFERENCE_EVENTS_PER_SECOND = 100;
  /** Probes going in and, later, out: the focus's compiled code is thrown away twice. */
  static final double RECOMPILES = 2;

  private final Vertx vertx;
  private final MetricLibrary library = MetricLibrary.builtin();

  CostPredictor(Vertx vertx) {
    this.vertx = vertx;
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

  /** How the values of a metric measured on several daemons combine ({@code sum} unless the metric says otherwise). */
  String combineOf(String metric) {
    return library.contains(metric) ? library.metric(metric).combine() : "sum";
  }

  /** Whether measuring {@code plan} inserts probes (and so retransforms classes), not only watches sources. */
  private static boolean retransforms(ProbePlan plan) {
    return plan.items().stream().anyMatch(i -> !i.type().equals("source"));
  }
}
