package dev.bottlenose.consultant;

import dev.bottlenose.consultant.SearchNodes.Node;
import dev.bottlenose.consultant.rules.ChildEdge;
import dev.bottlenose.consultant.rules.CodeOnly;
import dev.bottlenose.consultant.rules.Evidence;
import dev.bottlenose.consultant.rules.Hint;
import dev.bottlenose.consultant.rules.Promising;
import dev.bottlenose.consultant.rules.Refinement;
import dev.bottlenose.consultant.rules.RuleBook;
import dev.bottlenose.consultant.rules.RuleSession;
import dev.bottlenose.consultant.rules.Timing;
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
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One automated bottleneck search. The rules (why- and where-refinement, verdicts) run in a Drools
 * session; this class runs the rule loop: it feeds them nodes ({@link SearchNodes}), evidence
 * ({@link Experiments}: measurements within the budget, released as soon as a node is decided) and
 * resource children ({@link Exploration}), applies what they conclude, orders what they propose
 * ({@link Priorities}), and ends the search (true, false or unknown: a true node's children carry it on).
 *
 * <p>It is driven from outside: call {@link #advance()} once per sampling interval; the clock tells
 * the time, so tests run on a manual clock. Thread-safe; listeners are called on the advancing thread.
 */
public final class Search {
  /** The end reason of a search that ran for its {@code search.max_time_seconds}. */
  public static final String TIME_LIMIT = "time limit";
  /** The end reason of a search with nothing left to test. */
  public static final String CONVERGED = "converged: nothing left to test";
  private static final Comparator<Refinement> BY_PARENT_HYPOTHESIS_FOCUS = Comparator
      .comparingInt(Refinement::parentId).thenComparing(Refinement::hypothesisId).thenComparing(r -> r.focus().toString());

  private final String id;
  private final Settings settings;
  private final HypothesisCatalog catalog;
  private final InstantSource clock;
  private final SearchHistoryGraph graph;
  private volatile List<SavedSearch.LockHolder> lockHolders = List.of();
  private final RuleSession rules;
  private final SearchNodes nodes;
  private final Experiments experiments;
  private final Exploration exploration;
  private final Priorities priorities;
  private volatile Spending spending;
  private final Set<Refinement> refinements = new HashSet<>();
  /**
   * Refinements {@link #refused} since what that weighs last changed: the values (taken in at the start of a step),
   * the verdicts and the listings of the resources. Not weighed again until then: the rules propose hundreds of
   * refinements that stay refused, and a step settles the rules in several rounds, twice.
   */
  private final Set<Refinement> refusedNow = new HashSet<>();
  /**
   * {@link RuleSession#refinementChanges} and the size of {@link #refusedNow} when the refinements were last weighed:
   * {@link #refusedNow} grows only while they are weighed, so the same size means it was not cleared since (or was
   * empty anyway).
   */
  private long refinementsWeighedAt = -1;
  private int refusedWeighed = -1;
  /** Per node found false and queued again while nothing was true, its verdict's reason. */
  private final Map<Integer, String> watched = new HashMap<>();
  private long steps;
  private final long startedAtMillis;
  private long endedAtMillis;
  /** Why the search ended, set by the step that ends it as it begins ending it (no refinement after it). */
  private String endReason;
  /** {@link #endReason}, published once the ending step is done: read from any thread without waiting for a step. */
  private volatile String ended;
  private volatile long endedAt;
  /** Written without the search's lock: a stop told while a step runs is seen by that step's end check. */
  private volatile String stopRequest;

  private Search(SearchOptions options, MeasurementPort port, ResourceOracle oracle, InstantSource clock) {
    this.id = options.id();
    this.settings = options.settings();
    this.catalog = HypothesisCatalog.of(settings);
    this.clock = clock;
    this.graph = new SearchHistoryGraph(id);
    this.rules = RuleBook.load(options.rulesDirectory()).newSession();
    this.nodes = new SearchNodes(graph, rules, clock);
    this.experiments = new Experiments(nodes, rules, graph, settings, port);
    this.exploration = new Exploration(oracle, catalog, rules);
    this.priorities = new Priorities(settings, catalog);
    this.startedAtMillis = clock.millis();
    this.spending = new Spending(0, 0, experiments.budget());
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
    if (!nodes.isEmpty()) {
      throw new IllegalStateException("search " + id + " has begun already");
    }
    catalog.all().forEach(rules::insert);
    codeOnly().forEach(h -> rules.insert(new CodeOnly(h.id())));
    double sufficient = settings.number("search.sufficient_seconds");
    rules.insert(new Timing(sufficient, settings.number("search.decision_timeout_seconds"),
        Math.min(sufficient, settings.number("search.early_refinement_seconds")),
        Math.min(sufficient, settings.number("search.clear_seconds"))));
    Hypothesis top = catalog.get(HypothesisCatalog.TOP);
    ShgNode root = graph.add(top, Focus.WHOLE_PROGRAM, null, 0);
    nodes.add(root, top, -1, null);
    nodes.setState(root.id(), NodeState.TESTING, "searching");
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
   * (each observed, or predicted until observed), what being attached costs at rest, and the budget; {@code
   * burst}: the part of the measuring that is a node measured in a burst, paid from budget saved up before it.
   * Beside them, what the tool's own processes take from the target's machine, as fractions of the same CPU
   * (NaN: not known yet): the daemon ({@code daemon}) and the process running the search ({@code searcher}, which
   * is on the target's machine when it is a {@code search} command). Neither is in the budget yet. And what the
   * targets' JIT has spent since the attach compiling on the tool's behalf ({@code toolJitSeconds}: the tool's own
   * code, classes its probes changed, what the attach threw away), also as a share of their CPU over the same time
   * ({@code toolJit}); NaN while not known. Paid in the target, not in the budget either.
   */
  public record Spending(double measuring, double attached, double budget, double burst, double daemon,
      double searcher, double toolJit, double toolJitSeconds) {
    public Spending(double measuring, double attached, double budget) {
      this(measuring, attached, budget, 0);
    }

    public Spending(double measuring, double attached, double budget, double burst) {
      this(measuring, attached, budget, burst, Double.NaN, Double.NaN);
    }

    public Spending(double measuring, double attached, double budget, double burst, double daemon, double searcher) {
      this(measuring, attached, budget, burst, daemon, searcher, Double.NaN, Double.NaN);
    }

    /**
     * What the search measures within: the budget less being attached, but never less than a share of the
     * budget (being attached is a floor that no choice of nodes lowers).
     */
    public double room() {
      return BudgetScheduler.room(budget, attached);
    }

    /** Whether being attached takes so much that the search measures on top of it, beyond the budget. */
    public boolean attachedOverRoom() {
      return room() > budget - attached + 1e-12;
    }
  }

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

  /** What the search has found so far, ranked by impact ({@link Findings}). */
  /**
   * The findings in the graph as it is now, ranked by impact; a lock-contention finding with the holders of its lock
   * last seen ({@link #lockHolders(List)}).
   */
  public List<Findings.Finding> findings() {
    return Findings.withHolders(Findings.of(graph, catalog, startedAtMillis), lockHolders);
  }

  /**
   * Who was seen holding the contended locks of the search's JVMs, and doing what, while it runs (the runner asks the
   * daemons when lock contention is found); the findings carry them from now on, and listeners hear of it.
   */
  public void lockHolders(List<SavedSearch.LockHolder> holders) {
    lockHolders = List.copyOf(holders);
    graph.lockHolders(holders.size());
  }

  /** The lock holders last seen while the search ran ({@link #lockHolders(List)}); empty if none were looked at. */
  public List<SavedSearch.LockHolder> lockHolders() {
    return lockHolders;
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
    hint(path, weight, source, null);
  }

  /** As {@link #hint(ResourcePath, double, String)}, for the nodes of hypothesis {@code hypothesisId} only (null: all). */
  public synchronized void hint(ResourcePath path, double weight, String source, String hypothesisId) {
    if (!(weight >= 0 && weight <= 1)) {
      throw new IllegalArgumentException("hint weight must be in [0, 1], is " + weight);
    }
    priorities.hint(path, weight);
    if (endReason == null) {
      rules.add(new Hint(path, weight, source, hypothesisId));
    }
  }

  /**
   * Asks the search to end at its next end check: the step running now, if any, or the next. Takes no lock, so it
   * may be called from a thread that must not wait for a step.
   */
  public void stop(String reason) {
    stopRequest = reason == null ? "stopped" : reason;
  }

  /**
   * Safe from any thread; never waits for a step. A step holds the search's lock while it waits for the bus, so
   * a web request's event loop asking this with the lock (as it did) held up the reply the step awaited: a
   * stop from the page took over a minute.
   */
  public boolean isFinished() {
    return ended != null;
  }

  public String endReason() {
    return ended;
  }

  public long startedAtMillis() {
    return startedAtMillis;
  }

  public long endedAtMillis() {
    return endedAt;
  }

  /** One step: take in values and failures, let the rules decide, schedule within the budget, maybe end. */
  public synchronized void advance() {
    if (nodes.isEmpty()) {
      throw new IllegalStateException("search " + id + " has not begun; call begin() first");
    }
    if (endReason != null) {
      return;
    }
    long now = clock.millis();
    steps++;
    experiments.takeFailures();
    experiments.updateEvidence(now);
    refusedNow.clear();
    settle(now);
    experiments.retryPredictions();
    Set<Integer> promising = new HashSet<>();
    rules.promising().forEach(p -> promising.add(p.nodeId()));
    experiments.schedule(now, promising);
    spending = experiments.spending();
    settle(now);
    checkEnd(now);
  }

  private void settle(long now) {
    for (int round = 0; round < 100; round++) {
      rules.fire();
      boolean changed = applyVerdicts(now);
      changed |= explorePromising();
      if (changed) {
        refusedNow.clear();
      }
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
      Node node = nodes.get(v.nodeId());
      NodeState s = node.state();
      if (s == v.state() || s == NodeState.STOPPED || (s == NodeState.UNKNOWN && !node.hypothesis.isVirtual())) {
        continue;
      }
      experiments.stop(node);
      nodes.setState(v.nodeId(), v.state(), v.reason(), decision(node.hypothesis, v));
      if (v.state() == NodeState.TRUE) {
        exploration.explore(node.focus(), node.hypothesis, steps);
      }
      changed = true;
    }
    return changed;
  }

  /** The figures of the evidence that decided {@code v}, or null when no measurement did. */
  private static ShgNode.Decision decision(Hypothesis h, Verdict v) {
    Evidence e = v.evidence();
    if (e == null) {
      return null;
    }
    double bar = v.state() == NodeState.TRUE ? h.becomingTrueBar() : e.threshold();
    return new ShgNode.Decision(e.value(), e.threshold(), bar, e.heldSeconds(), e.samples(), e.clear());
  }

  /** Looks up the children of every promising node, true or still being tested; true if any were new. */
  private boolean explorePromising() {
    boolean changed = false;
    for (Promising p : rules.promising()) {
      Node node = nodes.get(p.nodeId());
      changed |= exploration.explore(node.focus(), node.hypothesis, steps);
    }
    return changed;
  }

  private boolean applyRefinements() {
    if (endReason != null) {
      return false;
    }
    long changes = rules.refinementChanges();
    if (changes == refinementsWeighedAt && refusedNow.size() == refusedWeighed) {
      // the same refinements as when they were last weighed, each since made or refused: nothing to do
      return false;
    }
    Set<Refinement> now = new HashSet<>(rules.refinements());
    boolean changed = false;
    // only those not made yet are weighed, and only those let through are ordered: the rules repeat every
    // refinement they ever proposed, and most of those not made stay refused step after step
    List<Refinement> made = new ArrayList<>();
    for (Refinement r : now) {
      if (refinements.contains(r) || refusedNow.contains(r)) {
        continue;
      }
      if (refused(r)) {
        refusedNow.add(r);
      } else {
        made.add(r);
      }
    }
    made.sort(BY_PARENT_HYPOTHESIS_FOCUS);
    for (Refinement r : made) {
      refinements.add(r);
      changed |= refine(r);
    }
    for (Refinement gone : List.copyOf(refinements)) {
      if (!now.contains(gone)) {
        refinements.remove(gone);
        changed |= orphan(gone);
      }
    }
    refinementsWeighedAt = changes;  // as read before the facts: a refinement the pass itself brought is weighed next time
    refusedWeighed = refusedNow.size();
    return changed;
  }

  /**
   * Whether {@code r} was not made because what the daemons recorded rules its child out or makes it too small:
   * it is asked again at the next step, when newer evidence (a value, a listing) may let it through.
   */
  private boolean refused(Refinement r) {
    Hypothesis h = catalog.get(r.hypothesisId());
    return r.along() != null && (exploration.isRuledOut(h.id(), r.focus().get(r.along())) || tooSmall(r, h)
        || blind(r, h));
  }

  /**
   * Whether {@code r} refines a node not yet true into code about which the daemons have recorded too little yet
   * to rule it out: a refinement made before its parent's verdict is a bet on the evidence, and made blind it went
   * into every loaded package (cpu_bound at the whole program refined into 120 JDK packages 3 s after the search
   * began, before the call graph had its first 20 samples). A true node waits too, for as long as its code is
   * listed again every step ({@link Exploration#awaitingRecord}): on a program whose threads are mostly in the VM
   * the samples come a few a second, and class loading true at the whole program went into 120 packages, each
   * needing a burst. It is asked again at the next step.
   */
  private boolean blind(Refinement r, Hypothesis h) {
    if (r.along() != Hierarchy.CODE) {
      return false;
    }
    Node parent = nodes.get(r.parentId());
    ResourcePath child = r.focus().get(Hierarchy.CODE);
    return !child.isRoot() && exploration.notYetRecorded(h, child.parent(), child)
        && (parent.state() != NodeState.TRUE || exploration.awaitingRecord(child.parent(), steps)
            || exploration.listed(child.parent()) > MAX_BLIND_CHILDREN);
  }

  /**
   * The most children a true node is refined into blind, once it has waited for the record ({@link #blind}): a program
   * that makes a JDK proxy in a fresh loader per request has a package per proxy, its threads define classes in the VM
   * where execution samples do not see them, and a 1% search refined CPU-bound into 24,000 packages, none of which it
   * could test. More than this many wait for the record, however long it takes.
   */
  static final int MAX_BLIND_CHILDREN = 64;

  private boolean refine(Refinement r) {
    Hypothesis h = catalog.get(r.hypothesisId());
    ShgNode existing = graph.find(h.id(), r.focus());
    ShgNode node = graph.add(h, r.focus(), r.along(), priorities.of(r));
    if (graph.addEdge(new ShgEdge(r.parentId(), node.id(), r.axis(), r.along(), r.reason())) && r.along() != null) {
      rules.add(new ChildEdge(r.parentId(), node.id(), r.along()));
    }
    if (existing == null) {
      nodes.add(node, h, r.parentId(), r.along());
      if (h.isVirtual()) {
        nodes.setState(node.id(), NodeState.TESTING, "virtual: true while a hypothesis below it is");
      } else {
        experiments.enqueue(node.id());
      }
      return true;
    }
    if (nodes.get(existing.id()).state() == NodeState.STOPPED && existing.reason() != null && existing.reason().startsWith("parent")) {
      nodes.setState(existing.id(), NodeState.UNTESTED, "queued again: " + r.reason());
      experiments.enqueue(existing.id());
      return true;
    }
    return false;
  }

  /**
   * Whether a where-step of {@code h} goes to a child whose share of the recorded events ({@link
   * Exploration#shareAtMost}), times the value it is a share of, stays below the threshold: the child cannot be
   * true, so it is not tested. From a focus constrained along one hierarchy alone that value is the parent's; from
   * one that combines hierarchies (a method's allocations refined by allocated type), it is {@code h}'s value at
   * the step's hierarchy alone where that was measured, since a combination holds no more than either part (the
   * method's allocations of one type are at most all of that type's). Sixty packages with a compilation or two
   * each are not refined into when the JIT is busy, only those that did a threshold's worth of the compiling; a
   * method that allocates is not asked about each of the 170 types the program allocates, only those with a
   * threshold's worth of the bytes.
   */
  private boolean tooSmall(Refinement r, Hypothesis h) {
    Node parent = nodes.get(r.parentId());
    ResourcePath from = parent.focus().get(r.along());
    if (parent.hypothesis != h || h.comparison() != Comparison.ABOVE) {
      return false;
    }
    double value = graph.node(r.parentId()).value();
    if (!parent.focus().equals(Focus.of(from))) {
      ShgNode alone = graph.find(h.id(), Focus.of(from));
      value = alone == null ? Double.NaN : alone.value();
    }
    return !Double.isNaN(value) && value * exploration.shareAtMost(h, from, r.focus().get(r.along())) < h.threshold();
  }

  private boolean orphan(Refinement gone) {
    ShgNode shg = graph.find(gone.hypothesisId(), gone.focus());
    boolean stillWanted = refinements.stream().anyMatch(r -> r.hypothesisId().equals(gone.hypothesisId()) && r.focus().equals(gone.focus()));
    Node node = shg == null ? null : nodes.get(shg.id());
    if (node == null || stillWanted || node.hypothesis.isVirtual()
        || (node.state() != NodeState.UNTESTED && node.state() != NodeState.TESTING)) {
      return false;
    }
    experiments.stop(node);
    nodes.setState(node.id(), NodeState.STOPPED, "parent no longer true");
    return true;
  }

  private void checkEnd(long now) {
    String reason = stopRequest;
    if (reason == null && now - startedAtMillis >= settings.millis("search.max_time_seconds")) {
      reason = TIME_LIMIT;
    }
    if (reason == null && nothingLeft() && !watchAgain()) {
      reason = CONVERGED;
    }
    if (reason == null && stalledOnBudget()) {
      watchAgain();
    }
    if (reason != null) {
      end(reason, now);
    }
  }

  /**
   * With nothing left to test, or nothing measured while the rest waits for budget ({@link #stalledOnBudget}),
   * and nothing located in the code (no true node names a method of the program's own), queues again
   * ({@code search.watch_until_found} = 1) the top-level hypotheses found false, and the places in the code a
   * most specific true node (no true node below it) was refined into and found false: a cause that comes later
   * (a program in phases, a load that starts after the attach) is still found before the time limit, and so
   * is the place of one that had moved on by the time its places were tested (a batch job CPU-bound in its
   * package while the package was tested, and writing by the time its classes were). Their verdicts are kept
   * ({@link #watched}): a search that ends while one is tested again reports it false, as it was found, not
   * stopped. True if any were queued.
   */
  private boolean watchAgain() {
    if (settings.number("search.watch_until_found") == 0 || locatedInCode()) {
      return false;
    }
    int root = nodes.all().stream().filter(n -> n.parentId() < 0).findFirst().map(Node::id).orElse(-1);
    Set<Integer> aboveTrue = new HashSet<>();
    nodes.all().stream().filter(n -> n.state() == NodeState.TRUE).forEach(n -> aboveTrue.add(n.parentId()));
    List<Node> again = nodes.all().stream().filter(n -> n.state() == NodeState.FALSE && !n.hypothesis.isVirtual()
        && (n.parentId() == root || refinesTrueCode(n, aboveTrue))).toList();
    for (Node n : again) {
      watched.put(n.id(), graph.node(n.id()).reason());
      nodes.setState(n.id(), NodeState.UNTESTED, "queued again: nothing was located yet (search.watch_until_found)");
      experiments.enqueue(n.id());
    }
    return !again.isEmpty();
  }

  /**
   * Whether a true node names a method of the program's own code (not the platform's, {@link
   * CodeOnly#inApplicationCode}): the search has said where in the code, at a place the user can change. A
   * platform method alone is not enough: a batch job's parsing phase was found in {@code StringLatin1.hashCode}
   * from the samples while its own parse method was tested in its writing phase, and the search stopped looking.
   */
  private boolean locatedInCode() {
    return nodes.all().stream().anyMatch(n -> !n.hypothesis.isVirtual() && n.state() == NodeState.TRUE
        && n.focus().get(Hierarchy.CODE) != null && n.focus().get(Hierarchy.CODE).isMethod()
        && CodeOnly.inApplicationCode(n.focus().get(Hierarchy.CODE)));
  }

  /**
   * Whether {@code n} is of its parent's hypothesis and places it further down the code, below a true parent
   * that has no true node below it ({@code aboveTrue}: the parents of true nodes).
   */
  private boolean refinesTrueCode(Node n, Set<Integer> aboveTrue) {
    Node parent = nodes.get(n.parentId());
    if (parent == null || parent.state() != NodeState.TRUE || aboveTrue.contains(parent.id())
        || parent.hypothesis != n.hypothesis) {
      return false;
    }
    ResourcePath code = n.focus().get(Hierarchy.CODE);
    return code != null && !code.equals(parent.focus().get(Hierarchy.CODE));
  }

  /**
   * Whether nothing is being measured while nodes wait for budget that does not come soon (nodes costing more
   * than a small budget allows, queued for bursts): the search has not converged, yet for the watch it is as
   * idle as if it had. At 1% a batch job's method_call_overhead waited 20 s for budget, and the search never
   * looked at its code again when the phase it had been found CPU-bound in came back. A node between two of
   * its bursts is waiting for budget, not measured.
   */
  private boolean stalledOnBudget() {
    return experiments.onlyWaitingForBudget() && nodes.all().stream()
        .noneMatch(n -> !n.hypothesis.isVirtual() && n.state() == NodeState.TESTING
            && (n.experiment == null || !n.experiment.isPaused()));
  }

  private boolean nothingLeft() {
    if (!experiments.isIdle()) {
      return false;
    }
    return nodes.all().stream().noneMatch(n -> !n.hypothesis.isVirtual()
        && (n.state() == NodeState.TESTING || n.state() == NodeState.UNTESTED));
  }

  private void end(String reason, long now) {
    endReason = reason;
    endedAtMillis = now;
    experiments.endAll();
    List<Integer> open = new ArrayList<>();
    for (Node node : nodes.all()) {
      NodeState s = node.state();
      if (!node.hypothesis.isVirtual() && (s == NodeState.UNTESTED || s == NodeState.TESTING)) {
        open.add(node.id());
      }
    }
    for (int id : open) {
      String before = watched.get(id);
      if (before != null) {
        nodes.setState(id, NodeState.FALSE, before + "; tested again until the search ended (" + reason + ")");
      } else {
        nodes.setState(id, NodeState.STOPPED, "search ended: " + reason);
      }
    }
    settle(now);
    graph.ended(reason);
    rules.close();
    endedAt = now;
    ended = reason;
  }

  /** Tells {@code listener} of every series started and every value measured from now on (for the journal). */
  public void onValues(ValueSeries.Listener listener) {
    experiments.measurements().listen(listener);
  }

  /** The search as saved: settings, graph, every value measured. */
  public synchronized SavedSearch toSaved() {
    return new SavedSearch(id, startedAtMillis, endedAtMillis, endReason, settings.asMap(), graph, experiments.measurements().allSeries());
  }
}
