package dev.bottlenose.consultant;

import dev.bottlenose.consultant.SearchNodes.Node;
import dev.bottlenose.consultant.rules.Evidence;
import dev.bottlenose.consultant.rules.Guess;
import dev.bottlenose.consultant.rules.RuleSession;
import dev.bottlenose.consultant.rules.Unavailable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The measuring side of a search: a node's cost is predicted, the node queued with the
 * {@link BudgetScheduler}, its experiment started when the budget admits it, its evidence and failures
 * handed to the rules every step, and its measurements released as soon as it is decided or shed. A node
 * measured in bursts keeps its experiment between them, paused, with its measurements released.
 */
final class Experiments {
  /**
   * A burst of a node whose measuring costs more than the budget lasts the minimum observation time, the time
   * clear evidence must have held ({@code search.clear_seconds}, {@link Experiment}) and one sampling interval
   * more: a measurement starts between two of the daemon's samples, so its first counted interval is only
   * part of one, and without the spare interval a burst's held time fell short of the clear time and no burst
   * ever concluded (method-call overhead at 1.0–1.3 against 0.10, four bursts, no verdict). A node that inserts
   * probes waits one interval more before its data counts, in every burst and when it runs continuously:
   * inserting probes throws the code's compiled form away, and in the first interval after it the code runs
   * interpreted or half-compiled (method-call overhead read 1.8–4.4 there, 0.9–1.1 after).
   */
  static long burstMillis(Settings settings) {
    return settings.millis("search.min_observation_seconds") + settings.millis("search.clear_seconds")
        + settings.millis("search.sampling_interval_seconds");
  }
  private final SearchNodes nodes;
  private final RuleSession rules;
  private final SearchHistoryGraph graph;
  private final Settings settings;
  private final MeasurementPort port;
  private final BudgetScheduler scheduler;
  private final Measurements measurements;
  /** Nodes whose cost prediction the port has not answered yet; asked again every step. */
  private final Set<Integer> awaitingPrediction = new HashSet<>();
  /** Per waiting node, the reason last shown. */
  private final Map<Integer, ShownWait> waitsShown = new HashMap<>();

  Experiments(SearchNodes nodes, RuleSession rules, SearchHistoryGraph graph, Settings settings, MeasurementPort port) {
    this.nodes = nodes;
    this.rules = rules;
    this.graph = graph;
    this.settings = settings;
    this.port = port;
    long interval = settings.millis("search.sampling_interval_seconds");
    this.scheduler = new BudgetScheduler(settings.number("budget.fraction"), interval,
        (int) settings.number("search.max_active_experiments"), settings.number("budget.burst_seconds"),
        burstMillis(settings), settings.number("budget.max_wait_seconds"));
    this.measurements = new Measurements(port);
  }

  Measurements measurements() {
    return measurements;
  }

  double budget() {
    return scheduler.budget();
  }

  /** Tells the rules of every measurement of a running node that failed. */
  void takeFailures() {
    for (Node node : nodes.all()) {
      if (node.experiment == null) {
        continue;
      }
      for (MetricRequest r : Experiment.requests(node.hypothesis, node.focus())) {
        MeasurementFailure f = measurements.failure(r);
        if (f != null) {
          rules.put(new Unavailable(node.id(), f.kind(), r + ": " + f.reason()));
        }
      }
    }
  }

  /** Hands the rules every running node's evidence so far, and shows its value and cost in the graph. */
  void updateEvidence(long now) {
    for (Node node : nodes.all()) {
      if (node.experiment != null && node.state() != NodeState.FALSE) {
        Evidence e = node.experiment.evaluate(now, measurements);
        rules.put(e);
        double cost = node.experiment.isPaused() ? Double.NaN : observedCost(node);
        graph.update(node.id(), n -> n.withValues(e.value(), e.threshold(), n.predictedCost(),
            Double.isNaN(cost) ? n.observedCost() : cost));
      }
    }
  }

  /**
   * Queues a node for measuring: predicts what its measurements not running yet will cost, and hands it to
   * the scheduler; a failed prediction makes it unavailable, one not answered yet is asked again next step.
   */
  void enqueue(int nodeId) {
    Node node = nodes.get(nodeId);
    double cost = 0;
    double once = 0;
    for (MetricRequest r : Experiment.requests(node.hypothesis, node.focus())) {
      if (measurements.isRunning(r)) {
        continue;
      }
      CostPrediction p = predict(r);
      if (p.failure() != null) {
        awaitingPrediction.remove(nodeId);
        rules.put(new Unavailable(nodeId, p.failure().kind(), r + ": " + p.failure().reason()));
        return;
      }
      if (p.isPending()) {
        awaitingPrediction.add(nodeId);
        return;
      }
      cost += p.cost();
      once += p.once();
    }
    awaitingPrediction.remove(nodeId);
    double predicted = cost;
    graph.update(nodeId, n -> n.withValues(n.value(), n.threshold(), predicted, n.observedCost()));
    Node parent = nodes.get(node.parentId());
    boolean within = node.along() != null && parent != null && parent.hypothesis.id().equals(node.hypothesis.id());
    scheduler.enqueueWithin(nodeId, node.hypothesis.id(), graph.node(nodeId).priority(), predicted, once,
        within ? parent.id() : -1);
  }

  private CostPrediction predict(MetricRequest r) {
    try {
      return port.predict(r);
    } catch (RuntimeException e) {
      return CostPrediction.failed(new MeasurementFailure(MeasurementFailure.Kind.METRIC_UNAVAILABLE, "the cost prediction failed: " + e.getMessage()));
    }
  }

  void retryPredictions() {
    for (Integer nodeId : List.copyOf(awaitingPrediction)) {
      enqueue(nodeId);
    }
  }

  /**
   * One scheduling step: tells the scheduler what the running nodes and the tool cost, sheds what no longer
   * fits (nodes in {@code keepLast}, whose children are tested on their evidence, last), rejects what never
   * can, starts what the budget admits, and shows why the others wait.
   */
  void schedule(long now, Set<Integer> keepLast) {
    Map<Integer, Double> observed = new HashMap<>();
    for (Node node : nodes.all()) {
      if (node.experiment != null) {
        observed.put(node.id(), observedCost(node));
      }
    }
    scheduler.recompiling(measurements.recompiling());
    scheduler.attached(measurements.attached());
    scheduler.observe(now, measurements.sideCost(), observed);
    for (int shed : scheduler.shed(now, keepLast)) {
      pause(nodes.get(shed), now);
      nodes.setState(shed, NodeState.TESTING, "shed: the measuring cost stayed over the budget; its evidence so far is"
          + " kept, waiting for room");
    }
    for (int ended : scheduler.endBursts(now, this::aboutToDecide)) {
      pause(nodes.get(ended), now);
    }
    scheduler.takeRejected().forEach((rejected, why) -> {
      stop(nodes.get(rejected));
      rules.put(new Unavailable(rejected, MeasurementFailure.Kind.METRIC_UNAVAILABLE, why));
    });
    for (int start : scheduler.admit(now)) {
      start(nodes.get(start), now);
    }
    for (Node node : nodes.all()) {
      showWait(node.id(), scheduler.waitFor(node.id()), now);
    }
  }

  /**
   * Shows why node {@code id} waits when the reason is new, another than the one shown, or shown {@value
   * #WAIT_FIGURES_MILLIS} ms ago or more: its figures (the budget saved up, what the start needs) change at every
   * step, and a node changed at every step is written to the journal and sent to every page that follows the search.
   */
  private void showWait(int id, BudgetScheduler.Wait wait, long now) {
    if (wait == null) {
      waitsShown.remove(id);
      return;
    }
    ShownWait shown = waitsShown.get(id);
    if (shown != null && shown.kind().equals(wait.kind()) && now - shown.atMillis() < WAIT_FIGURES_MILLIS
        && shown.text().equals(graph.node(id).reason())) {
      return;
    }
    String text = wait.text().get();
    graph.update(id, n -> n.withState(n.state(), text, now));
    waitsShown.put(id, new ShownWait(wait.kind(), text, now));
  }

  /** How long a waiting node's reason keeps its figures while the reason stays the same. */
  static final long WAIT_FIGURES_MILLIS = 5_000;

  private record ShownWait(String kind, String text, long atMillis) {}

  /**
   * Whether a node measured in a burst that has lasted its time is about to become true: its values pass the bar and
   * have held within {@link BudgetScheduler#MAX_EXTENSIONS} intervals of the clear time (a burst's first values come
   * an interval or two after its start). Not a node that fails: a false verdict waits the sufficient time anyway,
   * over several bursts, and going on would only delay every other node by what it overspends.
   */
  private boolean aboutToDecide(int nodeId) {
    Node node = nodes.get(nodeId);
    Experiment x = node.experiment;
    if (x == null || node.state() != NodeState.TESTING || x.guess() != Guess.PASSES) {
      return false;
    }
    double left = settings.number("search.clear_seconds") - x.heldSeconds();
    return left > 0 && left <= BudgetScheduler.MAX_EXTENSIONS * settings.number("search.sampling_interval_seconds");
  }

  /** What the search spends now: its running nodes' measuring, being attached, and the budget. */
  Search.Spending spending() {
    return new Search.Spending(scheduler.load(), measurements.attached(), scheduler.budget(), scheduler.burstLoad(),
        measurements.daemon(), measurements.searcher(), measurements.toolJitShare(), measurements.toolJitSeconds());
  }

  private void start(Node node, long now) {
    int nodeId = node.id();
    if (node.experiment != null && node.experiment.isPaused()) {
      node.experiment.resume(now);
    } else {
      long interval = settings.millis("search.sampling_interval_seconds");
      long minObservation = settings.millis("search.min_observation_seconds") + (scheduler.insertsProbes(nodeId) ? interval : 0);
      node.experiment = new Experiment(nodeId, node.hypothesis, node.focus(), now, minObservation, interval,
          settings.number("search.clear_z"));
    }
    nodes.setState(nodeId, NodeState.TESTING, scheduler.inBurst(nodeId)
        ? String.format(java.util.Locale.ROOT, "measuring in a burst (measured %.0f s so far)", node.experiment.measuredSeconds(now))
        : "measuring");
    for (MetricRequest r : Experiment.requests(node.hypothesis, node.focus())) {
      try {
        measurements.acquire(r, graph.node(nodeId).predictedCost());
      } catch (RuntimeException e) {
        rules.put(new Unavailable(nodeId, MeasurementFailure.Kind.METRIC_UNAVAILABLE, r + ": the request failed: " + e.getMessage()));
        return;
      }
    }
  }

  /**
   * Stops measuring a node for now, as between two bursts, and keeps its evidence: a shed node that is admitted again
   * goes on from it. A whole-program node shed every few seconds used to start from nothing each time, and never got
   * the sufficient time together (a server's lock waiting at 1%: 20 s measured in pieces, no verdict).
   */
  private void pause(Node node, long now) {
    if (node.experiment != null && !node.experiment.isPaused()) {
      node.experiment.pause(now);
      releaseRequests(node);
    }
  }

  /** Takes a node off the queue or out of the running, and releases its measurements. */
  void stop(Node node) {
    scheduler.remove(node.id());
    awaitingPrediction.remove(node.id());
    release(node);
  }

  private void release(Node node) {
    if (node.experiment == null) {
      return;
    }
    if (!node.experiment.isPaused()) {
      releaseRequests(node);
    }
    node.experiment = null;
    rules.removeEvidence(node.id());
  }

  private void releaseRequests(Node node) {
    for (MetricRequest r : Experiment.requests(node.hypothesis, node.focus())) {
      measurements.release(r);
    }
  }

  /** Whether nothing waits to be measured: no node queued or waiting for its prediction. */
  boolean isIdle() {
    return !scheduler.hasQueued() && awaitingPrediction.isEmpty();
  }

  /** Whether nodes are queued, their costs known, and none of them fits the budget now. */
  boolean onlyWaitingForBudget() {
    return scheduler.hasQueued() && awaitingPrediction.isEmpty();
  }

  /** The search ended: every experiment and its evidence goes, and every measurement is released. */
  void endAll() {
    for (Node node : nodes.all()) {
      node.experiment = null;
      rules.removeEvidence(node.id());
    }
    measurements.releaseAll();
  }

  private double observedCost(Node node) {
    double total = 0;
    for (MetricRequest r : Experiment.requests(node.hypothesis, node.focus())) {
      total += measurements.costShare(r);
    }
    return total;
  }
}
