package dev.bottlenose.consultant;

import dev.bottlenose.consultant.rules.ChildEdge;
import dev.bottlenose.consultant.rules.CodeOnly;
import dev.bottlenose.consultant.rules.Evidence;
import dev.bottlenose.consultant.rules.Hint;
import dev.bottlenose.consultant.rules.NodeFact;
import dev.bottlenose.consultant.rules.Promising;
import dev.bottlenose.consultant.rules.Refinement;
import dev.bottlenose.consultant.rules.RuleBook;
import dev.bottlenose.consultant.rules.RuleSession;
import dev.bottlenose.consultant.rules.Timing;
import dev.bottlenose.consultant.rules.Unavailable;
import dev.bottlenose.consultant.rules.Verdict;
import dev.bottlenose.metrics.MetricCompiler;
import dev.bottlenose.metrics.MetricException;
import dev.bottlenose.metrics.MetricLibrary;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One automated bottleneck search. The rules (why- and where-refinement, verdicts) run in a Drools
 * session; this class feeds them nodes, evidence and resource children, applies what they conclude,
 * asks the {@link MeasurementPort} for measurements within the budget and releases them as soon as a
 * node is decided (true, false or unknown: a true node's children carry the search on).
 *
 * <p>It is driven from outside: call {@link #advance()} once per sampling interval; the clock tells
 * the time, so tests run on a manual clock. Thread-safe; listeners are called on the advancing thread.
 */
public final class Search {
  private static final Comparator<Refinement> BY_PARENT_HYPOTHESIS_FOCUS = Comparator
      .comparingInt(Refinement::parentId).thenComparing(Refinement::hypothesisId).thenComparing(r -> r.focus().toString());

  /** Added to a where-refinement's key per place of its hierarchy in its hypothesis's order: the lock before the code. */
  private static final double HIERARCHY_STEP = 0.1;
  /** Taken off a where-refinement's key per level it reaches on its hierarchy: the search walks down before it widens. */
  private static final double DEPTH_STEP = 0.01;

  private final String id;
  private final Settings settings;
  private final HypothesisCatalog catalog;
  private final ResourceOracle oracle;
  private final InstantSource clock;
  private final MeasurementPort port;
  private final SearchHistoryGraph graph;
  private final RuleSession rules;
  private final BudgetScheduler scheduler;
  private volatile Spending spending;
  private final Measurements measurements;
  private final Map<Integer, NodeRun> runs = new HashMap<>();
  private final Set<Refinement> refinements = new HashSet<>();
  private final Set<Integer> awaitingPrediction = new HashSet<>();
  private final Map<ResourcePath, Double> hints = new LinkedHashMap<>();
  private final Set<ResourcePath> explored = new HashSet<>();
  /** Per path not explored yet, the step at which the oracle listed no children for it. */
  private final Map<ResourcePath, Long> listedEmptyAt = new HashMap<>();
  private long steps;
  /** Per hypothesis, the resources what the daemons recorded of them rules out ({@link HypothesisCatalog#ruledOutBy}). */
  private final Map<String, Set<ResourcePath>> ruledOut = new HashMap<>();
  private final long startedAtMillis;
  private long endedAtMillis;
  private String endReason;
  private String stopRequest;

  private static final class NodeRun {
    final Hypothesis hypothesis;
    NodeFact fact;
    Experiment experiment;

    NodeRun(Hypothesis hypothesis, NodeFact fact) {
      this.hypothesis = hypothesis;
      this.fact = fact;
    }
  }

  private Search(SearchOptions options, MeasurementPort port, ResourceOracle oracle, InstantSource clock) {
    this.id = options.id();
    this.settings = options.settings();
    this.catalog = HypothesisCatalog.of(settings);
    this.port = port;
    this.oracle = oracle;
    this.clock = clock;
    this.graph = new SearchHistoryGraph(id);
    this.rules = RuleBook.load(options.rulesDirectory()).newSession();
    this.scheduler = new BudgetScheduler(settings.number("budget.fraction"), settings.millis("search.sampling_interval_seconds"),
        (int) settings.number("search.max_active_experiments"), settings.number("budget.burst_seconds"));
    this.measurements = new Measurements(port);
    this.startedAtMillis = clock.millis();
    this.spending = new Spending(0, 0, scheduler.budget());
  }

  /**
   * Creates a search: compiles the rules, checks the settings and the hypotheses (errors name what is
   * wrong, and nothing is measured). Listeners added before {@link #begin()} see every node.
   */
  public static Search create(SearchOptions options, MeasurementPort port, ResourceOracle oracle, InstantSource clock) {
    return new Search(options, port, oracle, clock);
  }

  /** Starts the search at the virtual top-level node and takes the first step. */
  public synchronized Search begin() {
    if (!runs.isEmpty()) {
      throw new IllegalStateException("search " + id + " has begun already");
    }
    catalog.all().forEach(rules::insert);
    codeOnly().forEach(h -> rules.insert(new CodeOnly(h.id())));
    double sufficient = settings.number("search.sufficient_seconds");
    rules.insert(new Timing(sufficient, settings.number("search.decision_timeout_seconds"),
        sufficient * settings.number("search.early_refinement")));
    Hypothesis top = catalog.get(HypothesisCatalog.TOP);
    ShgNode root = graph.add(top, Focus.WHOLE_PROGRAM, null, 0);
    NodeRun run = new NodeRun(top, new NodeFact(root.id(), -1, top.id(), Focus.WHOLE_PROGRAM, NodeState.UNTESTED, null, true));
    runs.put(root.id(), run);
    setState(root.id(), NodeState.TESTING, "searching");
    advance();
    return this;
  }

  /** The hypotheses whose built-in metric cannot be measured at the whole program, only at a /Code focus. */
  private List<Hypothesis> codeOnly() {
    MetricLibrary library = MetricLibrary.builtin();
    List<Hypothesis> list = new ArrayList<>();
    for (Hypothesis h : catalog.all()) {
      if (h.isVirtual() || !library.contains(h.valueNeed().metric())) {
        continue;
      }
      try {
        MetricCompiler.compile(library.metric(h.valueNeed().metric()), Focus.WHOLE_PROGRAM);
      } catch (MetricException e) {
        list.add(h);
      }
    }
    return list;
  }

  public String id() {
    return id;
  }

  /**
   * What the search spends, as fractions of the target's CPU, at its last step: its running nodes' measuring
   * (each observed, or predicted until observed), what being attached costs at rest, and the budget.
   */
  public record Spending(double measuring, double attached, double budget) {}

  /** The spending at the last step (nothing spent before the first); safe from any thread, never waits for a step. */
  public Spending spending() {
    return spending;
  }

  public Settings settings() {
    return settings;
  }

  public HypothesisCatalog hypotheses() {
    return catalog;
  }

  public SearchHistoryGraph graph() {
    return graph;
  }

  public void addListener(ShgListener listener) {
    graph.addListener(listener);
  }

  /**
   * A cheap always-on source (stack samples, JFR), named by {@code source}, says {@code path} is
   * promising, with a weight in [0, 1] (Paradyn's Deep Start): a true why-node refines straight to it,
   * skipping the levels between, and where-refinements leading towards it are tested first.
   */
  public synchronized void hint(ResourcePath path, double weight, String source) {
    if (!(weight >= 0 && weight <= 1)) {
      throw new IllegalArgumentException("hint weight must be in [0, 1], is " + weight);
    }
    hints.merge(path, weight, Math::max);
    if (endReason == null) {
      rules.add(new Hint(path, weight, source));
    }
  }

  /** Asks the search to end at the next step. */
  public synchronized void stop(String reason) {
    stopRequest = reason == null ? "stopped" : reason;
  }

  public synchronized boolean isFinished() {
    return endReason != null;
  }

  public synchronized String endReason() {
    return endReason;
  }

  public long startedAtMillis() {
    return startedAtMillis;
  }

  public synchronized long endedAtMillis() {
    return endedAtMillis;
  }

  /** One step: take in values and failures, let the rules decide, schedule within the budget, maybe end. */
  public synchronized void advance() {
    if (runs.isEmpty()) {
      throw new IllegalStateException("search " + id + " has not begun; call begin() first");
    }
    if (endReason != null) {
      return;
    }
    long now = clock.millis();
    steps++;
    takeFailures();
    updateEvidence(now);
    settle(now);
    retryPredictions();
    schedule(now);
    settle(now);
    checkEnd(now);
  }

  private void takeFailures() {
    for (NodeRun run : runs.values()) {
      if (run.experiment == null) {
        continue;
      }
      for (MetricRequest r : Experiment.requests(run.hypothesis, run.fact.focus())) {
        MeasurementFailure f = measurements.failure(r);
        if (f != null) {
          rules.put(new Unavailable(run.fact.id(), f.kind(), r + ": " + f.reason()));
        }
      }
    }
  }

  private void updateEvidence(long now) {
    for (NodeRun run : runs.values()) {
      if (run.experiment != null && run.fact.state() != NodeState.FALSE) {
        Evidence e = run.experiment.evaluate(now, measurements);
        rules.put(e);
        graph.update(run.fact.id(), n -> n.withValues(e.value(), e.threshold(), n.predictedCost(), observedCost(run)));
      }
    }
  }

  private void settle(long now) {
    for (int round = 0; round < 100; round++) {
      rules.fire();
      boolean changed = applyVerdicts(now);
      changed |= explorePromising();
      changed |= applyRefinements();
      if (!changed) {
        return;
      }
    }
    throw new IllegalStateException("rules did not settle in 100 rounds");
  }

  private boolean applyVerdicts(long now) {
    boolean changed = false;
    for (Verdict v : rules.verdicts()) {
      NodeRun run = runs.get(v.nodeId());
      NodeState s = run.fact.state();
      if (s == v.state() || s == NodeState.STOPPED || (s == NodeState.UNKNOWN && !run.hypothesis.isVirtual())) {
        continue;
      }
      stopExperiment(run);
      setState(v.nodeId(), v.state(), v.reason());
      if (v.state() == NodeState.TRUE) {
        explore(run.fact.focus(), run.hypothesis);
      }
      changed = true;
    }
    return changed;
  }

  /** Looks up the children of every promising node, true or still being tested; true if any were new. */
  private boolean explorePromising() {
    boolean changed = false;
    for (Promising p : rules.promising()) {
      NodeRun run = runs.get(p.nodeId());
      changed |= explore(run.fact.focus(), run.hypothesis);
    }
    return changed;
  }

  /**
   * Adds the children of the focus along each hierarchy {@code h} refines. A path listed without children
   * is asked once more at a later step (the answer of a busy daemon may have been lost) and then counts
   * as a leaf, so a daemon that keeps timing out holds up at most two steps per path.
   */
  private boolean explore(Focus focus, Hypothesis h) {
    boolean changed = false;
    for (Hierarchy hierarchy : h.refineAlong()) {
      ResourcePath path = focus.get(hierarchy);
      if (explored.contains(path)) {
        continue;
      }
      Long emptyAt = listedEmptyAt.get(path);
      if (emptyAt != null && emptyAt == steps) {
        continue;
      }
      List<ResourceChild> children = oracle.children(path);
      if (children.isEmpty() && emptyAt == null) {
        listedEmptyAt.put(path, steps);
        continue;
      }
      explored.add(path);
      boolean onlyOneJvm = (hierarchy == Hierarchy.PROCESS || hierarchy == Hierarchy.MACHINE) && children.size() < 2;
      if (!onlyOneJvm) {
        children.forEach(rules::add);
        List<Hypothesis> hypotheses = catalog.all();
        for (ResourceChild c : children) {
          hypotheses.stream().filter(each -> catalog.ruledOutBy(each, c))
              .forEach(each -> ruledOut.computeIfAbsent(each.id(), k -> new HashSet<>()).add(c.child()));
        }
        changed |= !children.isEmpty();
      }
    }
    return changed;
  }

  private boolean applyRefinements() {
    if (endReason != null) {
      return false;
    }
    Set<Refinement> now = new HashSet<>(rules.refinements());
    boolean changed = false;
    List<Refinement> ordered = new ArrayList<>(now);
    ordered.sort(BY_PARENT_HYPOTHESIS_FOCUS);
    for (Refinement r : ordered) {
      if (refinements.add(r)) {
        changed |= refine(r);
      }
    }
    for (Refinement gone : List.copyOf(refinements)) {
      if (!now.contains(gone)) {
        refinements.remove(gone);
        changed |= orphan(gone);
      }
    }
    return changed;
  }

  private boolean refine(Refinement r) {
    Hypothesis h = catalog.get(r.hypothesisId());
    if (r.along() != null && ruledOut.getOrDefault(h.id(), Set.of()).contains(r.focus().get(r.along()))) {
      return false;
    }
    ShgNode existing = graph.find(h.id(), r.focus());
    ShgNode node = graph.add(h, r.focus(), r.along(), priority(r));
    if (graph.addEdge(new ShgEdge(r.parentId(), node.id(), r.axis(), r.along(), r.reason())) && r.along() != null) {
      rules.add(new ChildEdge(r.parentId(), node.id(), r.along()));
    }
    if (existing == null) {
      NodeFact fact = new NodeFact(node.id(), r.parentId(), h.id(), r.focus(), NodeState.UNTESTED, r.along(), h.isVirtual());
      runs.put(node.id(), new NodeRun(h, fact));
      rules.put(fact);
      if (h.isVirtual()) {
        setState(node.id(), NodeState.TESTING, "virtual: true while a hypothesis below it is");
      } else {
        enqueue(node.id());
      }
      return true;
    }
    if (existing.state() == NodeState.STOPPED && existing.reason() != null && existing.reason().startsWith("parent")) {
      setState(existing.id(), NodeState.UNTESTED, "queued again: " + r.reason());
      enqueue(existing.id());
      return true;
    }
    return false;
  }

  private boolean orphan(Refinement gone) {
    ShgNode node = graph.find(gone.hypothesisId(), gone.focus());
    boolean stillWanted = refinements.stream().anyMatch(r -> r.hypothesisId().equals(gone.hypothesisId()) && r.focus().equals(gone.focus()));
    if (node == null || stillWanted || runs.get(node.id()).hypothesis.isVirtual()
        || (node.state() != NodeState.UNTESTED && node.state() != NodeState.TESTING)) {
      return false;
    }
    stopExperiment(runs.get(node.id()));
    setState(node.id(), NodeState.STOPPED, "parent no longer true");
    return true;
  }

  private double priority(Refinement r) {
    double base = settings.number(r.axis() == Axis.WHY ? "priority.why" : "priority.where");
    if (r.along() == null) {
      return base;
    }
    ResourcePath refined = r.focus().get(r.along());
    base += HIERARCHY_STEP * Math.max(0, catalog.get(r.hypothesisId()).refineAlong().indexOf(r.along())) - DEPTH_STEP * refined.depth();
    double weight = 0;
    for (Map.Entry<ResourcePath, Double> hint : hints.entrySet()) {
      if (refined.contains(hint.getKey())) {
        weight = Math.max(weight, hint.getValue());
      }
    }
    if (refined.hierarchy() == Hierarchy.CODE && !CodeOnly.inApplicationCode(refined)) {
      base += settings.number("priority.platform_code");
    }
    return base - settings.number("priority.hint_bonus") * weight;
  }

  private void enqueue(int nodeId) {
    NodeRun run = runs.get(nodeId);
    double cost = 0;
    double once = 0;
    for (MetricRequest r : Experiment.requests(run.hypothesis, run.fact.focus())) {
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
    NodeRun parent = runs.get(run.fact.parentId());
    boolean within = run.fact.along() != null && parent != null && parent.hypothesis.id().equals(run.hypothesis.id());
    scheduler.enqueueWithin(nodeId, run.hypothesis.id(), graph.node(nodeId).priority(), predicted, once,
        within ? parent.fact.id() : -1);
  }

  private CostPrediction predict(MetricRequest r) {
    try {
      return port.predict(r);
    } catch (RuntimeException e) {
      return CostPrediction.failed(new MeasurementFailure(MeasurementFailure.Kind.METRIC_UNAVAILABLE, "the cost prediction failed: " + e.getMessage()));
    }
  }

  private void retryPredictions() {
    for (Integer nodeId : List.copyOf(awaitingPrediction)) {
      enqueue(nodeId);
    }
  }

  private void schedule(long now) {
    Map<Integer, Double> observed = new HashMap<>();
    for (NodeRun run : runs.values()) {
      if (run.experiment != null) {
        observed.put(run.fact.id(), observedCost(run));
      }
    }
    scheduler.recompiling(measurements.recompiling());
    scheduler.attached(measurements.attached());
    scheduler.observe(now, measurements.sideCost(), observed);
    Set<Integer> parents = new HashSet<>();
    rules.promising().forEach(p -> parents.add(p.nodeId()));
    for (int shed : scheduler.shed(now, parents)) {
      releaseMeasurements(runs.get(shed));
      setState(shed, NodeState.UNTESTED, "shed: the measuring cost stayed over the budget; waiting for room");
    }
    scheduler.takeRejected().forEach((rejected, why) -> {
      stopExperiment(runs.get(rejected));
      rules.put(new Unavailable(rejected, MeasurementFailure.Kind.METRIC_UNAVAILABLE, why));
    });
    for (int start : scheduler.admit(now)) {
      startExperiment(runs.get(start), now);
    }
    for (NodeRun run : runs.values()) {
      String why = scheduler.waitReason(run.fact.id());
      if (why != null) {
        graph.update(run.fact.id(), n -> n.withState(n.state(), why, now));
      }
    }
    spending = new Spending(scheduler.load(), measurements.attached(), scheduler.budget());
  }

  private void startExperiment(NodeRun run, long now) {
    int nodeId = run.fact.id();
    run.experiment = new Experiment(nodeId, run.hypothesis, run.fact.focus(), now,
        settings.millis("search.min_observation_seconds"), settings.millis("search.sampling_interval_seconds"));
    setState(nodeId, NodeState.TESTING, "measuring");
    for (MetricRequest r : Experiment.requests(run.hypothesis, run.fact.focus())) {
      try {
        measurements.acquire(r, graph.node(nodeId).predictedCost());
      } catch (RuntimeException e) {
        rules.put(new Unavailable(nodeId, MeasurementFailure.Kind.METRIC_UNAVAILABLE, r + ": the request failed: " + e.getMessage()));
        return;
      }
    }
  }

  private void stopExperiment(NodeRun run) {
    scheduler.remove(run.fact.id());
    awaitingPrediction.remove(run.fact.id());
    releaseMeasurements(run);
  }

  private void releaseMeasurements(NodeRun run) {
    if (run.experiment == null) {
      return;
    }
    run.experiment = null;
    for (MetricRequest r : Experiment.requests(run.hypothesis, run.fact.focus())) {
      measurements.release(r);
    }
    rules.removeEvidence(run.fact.id());
  }

  private double observedCost(NodeRun run) {
    double total = 0;
    for (MetricRequest r : Experiment.requests(run.hypothesis, run.fact.focus())) {
      total += measurements.costShare(r);
    }
    return total;
  }

  private void setState(int nodeId, NodeState state, String reason) {
    NodeRun run = runs.get(nodeId);
    run.fact = run.fact.withState(state);
    rules.put(run.fact);
    long now = clock.millis();
    graph.update(nodeId, n -> n.withState(state, reason, now));
  }

  private void checkEnd(long now) {
    String reason = stopRequest;
    if (reason == null && now - startedAtMillis >= settings.millis("search.max_time_seconds")) {
      reason = "time limit";
    }
    if (reason == null && nothingLeft()) {
      reason = "converged: nothing left to test";
    }
    if (reason != null) {
      end(reason, now);
    }
  }

  private boolean nothingLeft() {
    if (scheduler.hasQueued() || !awaitingPrediction.isEmpty()) {
      return false;
    }
    return runs.values().stream().noneMatch(r -> !r.hypothesis.isVirtual()
        && (r.fact.state() == NodeState.TESTING || r.fact.state() == NodeState.UNTESTED));
  }

  private void end(String reason, long now) {
    endReason = reason;
    endedAtMillis = now;
    for (NodeRun run : runs.values()) {
      run.experiment = null;
      rules.removeEvidence(run.fact.id());
    }
    measurements.releaseAll();
    List<Integer> open = new ArrayList<>();
    for (NodeRun run : runs.values()) {
      NodeState s = run.fact.state();
      if (!run.hypothesis.isVirtual() && (s == NodeState.UNTESTED || s == NodeState.TESTING)) {
        open.add(run.fact.id());
      }
    }
    open.forEach(id -> setState(id, NodeState.STOPPED, "search ended: " + reason));
    settle(now);
    graph.ended(reason);
    rules.close();
  }

  /** Tells {@code listener} of every series started and every value measured from now on (for the journal). */
  public void onValues(ValueSeries.Listener listener) {
    measurements.listen(listener);
  }

  /** The search as saved: settings, graph, every value measured. */
  public synchronized SavedSearch toSaved() {
    return new SavedSearch(id, startedAtMillis, endedAtMillis, endReason, settings.asMap(), graph, measurements.allSeries());
  }
}
