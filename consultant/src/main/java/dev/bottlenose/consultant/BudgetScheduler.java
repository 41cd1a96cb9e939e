package dev.bottlenose.consultant;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Decides which nodes may be tested within the overhead budget (a fraction of the target's CPU): the
 * admission queue and shedding; what starts cost once is paid from a {@link OneTimeBucket}, and how far
 * predictions were off is learned by a {@link CostCalibration}.
 *
 * <p>The budget is against the program without the tool, so what being attached costs while nothing is
 * measured ({@link #attached}: the agent's and JFR's threads at rest) comes off it first; the nodes share
 * the {@link #room} left. At 1% on a two-core target at rest the attached agent takes about half of it. The
 * room never falls below {@link #MIN_ROOM_SHARE} of the budget: being attached is a floor no choice of nodes
 * lowers (only detaching does, which is the user's call), and a search that may measure nothing would sit
 * until its time limit with every node waiting; on a nearly idle program at 1% the agent alone took 1.6–2.6%.
 * Then the whole run costs being attached plus at most that share, and the status line says so.
 *
 * <p>The load is, per running node, its observed cost, or its predicted cost until a first observed cost
 * for it arrived (Paradyn's pending cost). Waiting nodes are admitted in priority order (lower key first,
 * then first come) when the load + its own cost ≤ room and the bucket allows its one-time cost; a cheaper
 * node may pass one that does not fit. A node predicted to cost more than the whole budget is rejected. A
 * cost sample covers one sampling interval: when one shows the load over the budget, it has been over for
 * that interval, and the lowest-priority running nodes are shed at once until it fits again, so the cost
 * never stays over the budget for more than one interval. The side cost of inserting and removing probes
 * and the JIT's recompiling shed nothing: they are already paid, and removing probes would retransform and
 * recompile once more. Shed nodes wait in the queue with what they were seen to cost as their new prediction: the
 * median of their latest intervals' costs, so that one interval's spike does not make a node look expensive for
 * the rest of the search.
 *
 * <p>A node queued within another of its kind (a where-refinement: a class below its package) measures
 * a subset of what that one measured, so once the enclosing node has been observed, the child's expected
 * cost is at most the enclosing node's observed cost, shared out in proportion to the two predictions.
 * Without it, a package's counters seen at 700 times their prediction would scale every class below it by
 * 700, each class alone would seem to need the whole package's cost, and the classes would wait for each
 * other. In proportion: a child that makes JFR walk the stack of every event its parent counted without one
 * (lock waiting in a method, below lock waiting in the whole program) is predicted at three times the parent's
 * price per event, and so expected at three times what the parent was seen to cost. On the compute benchmark one
 * package's counters going in and out cost 100–170 ms of the agent's CPU and a burst of compiling, several times
 * a 1% budget's share of a 20 s window: hence the bucket.
 *
 * <p>A node whose measurement costs more than the {@link #room} even alone is not refused: it is measured in
 * bursts (DYPER's duty cycle). A burst lasts {@code burstMillis} (the minimum observation time and three
 * sampling intervals: enough values for a clear verdict); what it costs beyond the room while it runs, and its
 * one-time cost, are paid from the bucket, so between bursts the node rests until the budget has accrued
 * that much. One burst runs at a time; other nodes start meanwhile in half the room, from what the bucket holds
 * beyond what the burst still needs. A start that needs more than the
 * bucket's capacity (such a burst, or a one-time cost larger than the bucket) keeps the budget accruing for
 * it beyond the capacity, at most {@code maxWaitSeconds} of the budget; while it waits, nodes after it in
 * the queue may use only half the room, so the bucket fills. A node whose start would need more than that is
 * rejected with the numbers. Over any stretch the measuring costs the budget on average; within a burst it
 * may cost more, for a few seconds.
 */
final class BudgetScheduler {
  private final double budget;
  private final long intervalMillis;
  private final int maxActive;
  private final OneTimeBucket bucket;
  private final CostCalibration calibration = new CostCalibration();
  private long lastObservedMillis = -1;
  private final Map<Integer, Entry> queued = new HashMap<>();
  private final Map<Integer, Entry> running = new HashMap<>();
  private final Map<Integer, String> rejected = new LinkedHashMap<>();
  private double recompiling;
  /** What being attached costs the target with nothing measured (fraction of its CPU); the search has the rest. */
  private double attached;
  private boolean shedThisStep;
  private long overSince = -1;
  private long seq;
  private final long burstMillis;
  private final double maxWaitSeconds;
  /** The node measured in a burst now, or null. */
  private Entry burst;
  private long burstEndsAt;
  /** What the burst running now was planned to need from the bucket: how far it may overdraw it before it ends early. */
  private double burstNeed;
  /** How many intervals the burst running now has gone on past its time ({@link #MAX_EXTENSIONS} at most). */
  private int burstExtensions;
  /**
   * The most intervals a burst goes on past its time while its node is about to be decided ({@link #endBursts}): the
   * values of a burst's first interval arrive an interval or two after it starts (the reader sees a flush up to
   * 1.4 s after the target wrote it), and lock waiting at 2.7 against 0.2, three values counted in each of two
   * bursts, never became true at 1%.
   */
  static final int MAX_EXTENSIONS = 2;
  /** The start the bucket is filling for beyond its capacity (the best-placed one that needs it), NaN if none. */
  private double saving = Double.NaN;

  private static final class Entry {
    final int nodeId;
    final String kind;
    final double priority;
    final long order;
    final int within;
    double predicted;
    /** The port's own prediction, before calibration: what calibration compares observed costs with. */
    final double raw;
    /** The port's prediction of the one-time cost (fraction × seconds). */
    double once;
    boolean learned;
    /** Whether its first observed cost went into its kind's calibration (once per node, however often it starts). */
    boolean calibrated;
    double observed = Double.NaN;
    /** Its latest observed costs, one per sampling interval it ran, over all its runs (at most {@link #SEEN}). */
    final java.util.ArrayDeque<Double> seenCosts = new java.util.ArrayDeque<>();
    /** How many bursts it had: it is measured in bursts once it has had one. */
    int bursts;
    /** When it last started. */
    long startedAtMillis;

    Entry(int nodeId, String kind, double priority, double predicted, int within, long order) {
      this.nodeId = nodeId;
      this.kind = kind;
      this.within = within;
      this.priority = priority;
      this.predicted = predicted;
      this.raw = predicted;
      this.order = order;
    }

    double load() {
      return Double.isNaN(observed) ? predicted : observed;
    }

    /**
     * What it is expected to cost when it runs again: the median of its latest observed costs, else the larger of
     * its prediction and its load. Not the latest alone: one interval's cost can hold what the agent did for the
     * whole search then (listing a package's classes for the next step, the attach's wake), charged to the nodes
     * that happened to run, and a first interval is only part-filled; at 1% one such interval of a whole-program
     * node read 2% of a core after six of nothing, and the node waited out the search.
     */
    double seen() {
      if (seenCosts.isEmpty()) {
        return Math.max(predicted, load());
      }
      double[] sorted = seenCosts.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      int n = sorted.length;
      return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
  }

  /** How many of a node's latest observed costs its expected cost is the median of. */
  static final int SEEN = 15;
  private static final Comparator<Entry> FIRST = Comparator.comparingDouble((Entry e) -> e.priority).thenComparingLong(e -> e.order);

  /** With bursts of four intervals and at most 30 s of the budget saved up for one start (the settings' defaults). */
  BudgetScheduler(double budget, long intervalMillis, int maxActive, double burstSeconds) {
    this(budget, intervalMillis, maxActive, burstSeconds, 4 * intervalMillis, 30);
  }

  /**
   * {@code burstSeconds}: the bucket's capacity in seconds of the budget; {@code burstMillis}: how long a burst
   * of a node that costs more than the budget lasts; {@code maxWaitSeconds}: the most the bucket may save up
   * for one start, in seconds of the budget.
   */
  BudgetScheduler(double budget, long intervalMillis, int maxActive, double burstSeconds, long burstMillis, double maxWaitSeconds) {
    if (!(budget > 0 && budget < 1)) {
      throw new IllegalArgumentException("budget must be a fraction of the target's CPU in (0, 1), is " + budget);
    }
    if (!(burstSeconds >= 0)) {
      throw new IllegalArgumentException("burst seconds must be >= 0, is " + burstSeconds);
    }
    if (!(maxWaitSeconds >= burstSeconds) || burstMillis < intervalMillis) {
      throw new IllegalArgumentException("the longest wait (" + maxWaitSeconds + " s) must be at least the bucket's "
          + burstSeconds + " s, and a burst (" + burstMillis + " ms) at least one interval");
    }
    this.budget = budget;
    this.intervalMillis = intervalMillis;
    this.maxActive = maxActive;
    this.bucket = new OneTimeBucket(budget, intervalMillis, burstSeconds);
    this.burstMillis = burstMillis;
    this.maxWaitSeconds = maxWaitSeconds;
  }

  /**
   * What the bucket holds now (fraction of the target's CPU × seconds): the budget's flow in, minus all the
   * search spent, at most {@code budget × burstSeconds}; negative while one-time costs overdraw it.
   */
  double credit() {
    return bucket.credit();
  }

  /** What starting {@code e} is expected to cost once (fraction × seconds). */
  private double oneTimeCost(Entry e) {
    return bucket.expected(e.kind, e.once, e.raw);
  }

  double budget() {
    return budget;
  }

  /** The least share of the budget the search measures with, however much being attached costs. */
  static final double MIN_ROOM_SHARE = 0.5;

  /**
   * What the search may spend: the budget less what being attached costs the target while nothing is
   * measured ({@link #attached}), never below {@link #MIN_ROOM_SHARE} of the budget.
   */
  double room() {
    return room(budget, attached);
  }

  static double room(double budget, double attached) {
    return Math.max(budget * MIN_ROOM_SHARE, budget - attached);
  }

  /**
   * The latest cost of being attached while nothing is measured (the agent's and JFR's threads at rest), as
   * a fraction of the target's CPU; NaN keeps the last one. The budget is against the program without the
   * tool, and this part is paid whether or not a node runs, so the nodes share what is left of the budget.
   */
  void attached(double fraction) {
    if (!Double.isNaN(fraction)) {
      attached = Math.max(0, fraction);
    }
  }

  /**
   * Queues a node of {@code kind} (its hypothesis: nodes of one kind measure the same metrics, so their
   * predictions are off by the same factor).
   */
  void enqueue(int nodeId, String kind, double priority, double predictedCost) {
    enqueueWithin(nodeId, kind, priority, predictedCost, 0, -1);
  }

  /**
   * Queues a node of {@code kind} predicted to cost {@code predictedCost} while it runs and {@code once} to
   * start and stop (fraction × seconds), whose measurement is part of that of node {@code enclosing} (of the
   * same kind; -1 for none).
   */
  void enqueueWithin(int nodeId, String kind, double priority, double predictedCost, double once, int enclosing) {
    Entry e = new Entry(nodeId, kind, priority, predictedCost, enclosing, seq++);
    e.once = once;
    String never = never(e, predictedCost, once);
    if (never != null) {
      rejected.put(nodeId, never);
      return;
    }
    queued.put(nodeId, e);
  }

  /** The most the bucket may save up for one start (fraction × seconds). */
  private double maxSaving() {
    return budget * maxWaitSeconds;
  }

  /**
   * What starting {@code e} at {@code cost} needs from the bucket with {@code load} already running: its
   * one-time cost, and for a burst (it costs more than the room) what the burst costs beyond the room left.
   */
  private double need(double cost, double once, double load) {
    if (cost <= room() + 1e-12) {
      return once;
    }
    return (cost - Math.max(0, room() - load)) * burstMillis(once) / 1000.0 + once;
  }

  /**
   * How long a burst of a node with one-time cost {@code once} lasts: one interval more for a node that inserts
   * probes (a one-time cost), whose first interval runs the code the probes threw out of its compiled form.
   */
  private long burstMillis(double once) {
    return burstMillis + (once > 0 ? intervalMillis : 0);
  }

  /** Whether running node {@code nodeId} inserts probes (it has a one-time cost): its data counts one interval later. */
  boolean insertsProbes(int nodeId) {
    Entry e = running.get(nodeId);
    return e != null && e.once > 0;
  }

  /** Why a node costing {@code cost} to run and {@code once} to start can never be measured, or null. */
  private String never(Entry e, double cost, double once) {
    double alone = need(cost, once, 0);
    if (alone <= maxSaving() + 1e-12) {
      return null;
    }
    if (cost <= room() + 1e-12 || once > maxSaving() + 1e-12) {
      return String.format(Locale.ROOT, "its one-time cost (probes going in and out, the JIT compiling the code"
          + " again) is expected at %.4f, more than the budget saves up for one start (%.4f = the budget × %.0f s,"
          + " budget.max_wait_seconds)", once, maxSaving(), maxWaitSeconds);
    }
    return String.format(Locale.ROOT, "%s cost %.4f is more than the budget %.4f allows even in bursts: a %.0f s burst"
        + " needs %.4f (its cost over the budget%s), more than the budget saves up in %.0f s (budget.max_wait_seconds)",
        e.learned ? "measured" : "predicted", cost, budget, burstMillis(once) / 1000.0, alone,
        once > 0 ? String.format(Locale.ROOT, " and %.4f to start and stop it", once) : "", maxWaitSeconds);
  }

  /** Forgets a queued or running node; true if it was known. */
  boolean remove(int nodeId) {
    Entry e = running.remove(nodeId);
    if (e != null && e.once > 0) {
      bucket.stopped(lastObservedMillis);
    }
    if (e != null && e == burst) {
      burst = null;
    }
    return queued.remove(nodeId) != null | e != null;
  }

  boolean isQueued(int nodeId) {
    return queued.containsKey(nodeId);
  }

  boolean hasQueued() {
    return !queued.isEmpty();
  }

  /** Whether node {@code nodeId} is being measured in a burst now. */
  boolean inBurst(int nodeId) {
    return burst != null && burst.nodeId == nodeId;
  }

  /** The nodes rejected since the last call, each with why: alone it costs (or is predicted to cost) more than the budget. */
  Map<Integer, String> takeRejected() {
    Map<Integer, String> taken = new LinkedHashMap<>(rejected);
    rejected.clear();
    return taken;
  }

  /**
   * What the running nodes' measurements cost (each its observed cost, or its prediction until one was
   * observed), without the one-time costs of starting and stopping them, which the bucket pays.
   */
  double load() {
    double load = 0;
    for (Entry e : running.values()) {
      load += e.load();
    }
    return load;
  }

  /** What the node measured in a burst now costs (0 if none): paid from the bucket, not the room. */
  double burstLoad() {
    return burst == null ? 0 : burst.load();
  }

  /** The load without the node in a burst: what has to fit in the room (the burst is paid from the bucket). */
  private double steadyLoad() {
    return load() - burstLoad();
  }

  /** How much more the measurements of nodes of {@code kind} have cost than predicted so far (at least 1). */
  double calibration(String kind) {
    return calibration.factor(kind);
  }

  private double expected(Entry e) {
    return e.learned ? e.predicted : calibration.expected(e.kind, e.raw, e.within);
  }

  /**
   * Starts as many queued nodes as fit, best first, and then the best node that costs more than the room as a
   * burst if the bucket holds what the burst needs; returns them in that order. Right after a shed nothing
   * starts. While a burst runs, what it still needs is kept in the bucket and no other burst starts. While a
   * node waits for a burst, or for the bucket to save up beyond its capacity, or a burst runs, the nodes after
   * it may use only half the room, so that the bucket fills.
   */
  List<Integer> admit(long nowMillis) {
    List<Integer> started = new ArrayList<>();
    saving = Double.NaN;
    if (shedThisStep) {
      shedThisStep = false;
      return started;
    }
    List<Entry> order = new ArrayList<>(queued.values());
    order.sort(FIRST);
    double load = steadyLoad();
    double left = bucket.credit() - burstStillNeeds(nowMillis);
    boolean someoneSaves = burst != null;
    Entry nextBurst = null;
    for (Entry e : order) {
      double cost = expected(e);
      double once = oneTimeCost(e);
      String never = never(e, cost, once);
      if (never != null) {
        queued.remove(e.nodeId);
        rejected.put(e.nodeId, never);
        continue;
      }
      boolean asBurst = cost > room() + 1e-12;
      boolean saver = need(cost, once, load) > bucket.capacity() + 1e-12;
      if (asBurst || saver) {
        if (!someoneSaves) {
          someoneSaves = true;
          nextBurst = e;
        }
        continue;
      }
      double roomNow = someoneSaves ? room() / 2 : room();
      if (running.size() < maxActive && left > 0 && load + cost <= roomNow + 1e-12 && left >= once - 1e-12) {
        run(e, cost, nowMillis);
        started.add(e.nodeId);
        load += cost;
        left -= once;
      }
    }
    if (nextBurst != null && burst == null && running.size() < maxActive) {
      double cost = expected(nextBurst);
      double need = need(cost, oneTimeCost(nextBurst), load);
      boolean fits = cost > room() + 1e-12 || load + cost <= room() + 1e-12;
      if (fits && left > 0 && left >= need - 1e-12) {
        run(nextBurst, cost, nowMillis);
        started.add(nextBurst.nodeId);
        if (cost > room() + 1e-12) {
          nextBurst.bursts++;
          burst = nextBurst;
          burstEndsAt = nowMillis + burstMillis(nextBurst.once);
          burstNeed = need;
          burstExtensions = 0;
        }
      } else if (need > bucket.capacity() + 1e-12) {
        saving = need;
      }
    }
    bucket.saveUpTo(saving);
    return started;
  }

  /** What the burst running now still costs beyond the room until it ends (0 if none): the bucket keeps it. */
  private double burstStillNeeds(long nowMillis) {
    if (burst == null) {
      return 0;
    }
    double over = burst.load() - Math.max(0, room() - steadyLoad());
    return Math.max(0, over) * Math.max(0, burstEndsAt - nowMillis) / 1000.0;
  }

  private void run(Entry e, double cost, long nowMillis) {
    e.predicted = cost;
    e.learned = true;
    e.startedAtMillis = nowMillis;
    queued.remove(e.nodeId);
    running.put(e.nodeId, e);
    if (e.once > 0) {
      bucket.started(e.nodeId, e.kind, e.raw, nowMillis);
    }
  }

  /**
   * Ends the burst running now if it has lasted its time, or if it cost so much more than expected that it has
   * overdrawn the bucket by more than it was planned to need; the node goes back to the queue with what it was
   * seen to cost, to rest until the budget has accrued its next burst. Returns it (empty if none ended). A
   * burst that overdraws the bucket by less goes on to its end: its one-time cost (probes in, the code
   * compiled again) is paid, and ending it before its data counts would waste that and every burst after it
   * alike (method-call overhead ended each burst after two of its six intervals, its one counted value
   * 25 times the threshold, and never concluded). Nothing starts until the bucket is repaid, so the budget
   * holds on average; the overdraft is at most one burst's need.
   */
  List<Integer> endBursts(long nowMillis) {
    return endBursts(nowMillis, nodeId -> false);
  }

  /**
   * As {@link #endBursts(long)}; a burst that has lasted its time without overdrawing the bucket goes on one interval
   * more, {@link #MAX_EXTENSIONS} times at most, while {@code aboutToDecide} says its node's data will decide it
   * soon (it passes, and has nearly held the clear time): ending it then would throw away the burst's cost and make
   * the node wait for the next one. What the interval costs beyond the room is added to what the burst may overdraw.
   */
  List<Integer> endBursts(long nowMillis, java.util.function.IntPredicate aboutToDecide) {
    boolean overspent = bucket.credit() < -burstNeed - 1e-12 && burst != null
        && lastObservedMillis > burstEndsAt - burstMillis(burst.once);
    if (burst == null || nowMillis < burstEndsAt && !overspent) {
      return List.of();
    }
    if (!overspent && burstExtensions < MAX_EXTENSIONS && aboutToDecide.test(burst.nodeId)) {
      burstExtensions++;
      burstEndsAt = nowMillis + intervalMillis;
      burstNeed += Math.max(0, burst.load() - Math.max(0, room() - steadyLoad())) * intervalMillis / 1000.0;
      return List.of();
    }
    Entry e = burst;
    burst = null;
    running.remove(e.nodeId);
    if (e.once > 0) {
      bucket.stopped(nowMillis);
    }
    e.predicted = e.seen();
    e.observed = Double.NaN;
    queued.put(e.nodeId, e);
    return List.of(e.nodeId);
  }

  /**
   * A running node seen to cost more than the room alone (its prediction was too low) becomes the burst for
   * the rest of a burst's time, if the bucket can pay for that: shedding it would throw away what going in
   * cost and the evidence it has. The most expensive such node is chosen.
   */
  private void becomeBurst(List<Entry> candidates, long nowMillis) {
    Entry best = null;
    for (Entry e : candidates) {
      if (e.load() > room() + 1e-12 && (best == null || e.load() > best.load())) {
        best = e;
      }
    }
    if (best == null) {
      return;
    }
    long endsAt = Math.max(nowMillis, best.startedAtMillis + burstMillis(best.once));
    double others = steadyLoad() - best.load();
    double need = (best.load() - Math.max(0, room() - others)) * (endsAt - nowMillis) / 1000.0;
    if (others <= room() + 1e-12 && bucket.credit() >= need - 1e-12 && endsAt > nowMillis) {
      best.bursts++;
      burst = best;
      burstEndsAt = endsAt;
      burstNeed = need;
      burstExtensions = 0;
    }
  }

  /** Why a queued node waits, or null if it does not. */
  String waitReason(int nodeId) {
    Wait w = waitFor(nodeId);
    return w == null ? null : w.text().get();
  }

  /**
   * Why a queued node waits: {@code kind} names the reason and stays the same while only its figures change, and
   * {@code text} words it with the figures of the moment, worked out only when asked (a search with a hundred queued
   * nodes asks for every one at every step, and shows the words only when the reason or a few seconds have passed).
   */
  record Wait(String kind, Supplier<String> text) {}

  /** Why a queued node waits ({@link Wait}), or null if it does not. */
  Wait waitFor(int nodeId) {
    Entry e = queued.get(nodeId);
    if (e == null) {
      return null;
    }
    if (running.size() >= maxActive) {
      return new Wait("full", () -> "waiting: " + maxActive + " nodes are being tested already");
    }
    double cost = expected(e);
    double once = oneTimeCost(e);
    if (burst != null && (cost > room() + 1e-12 || need(cost, once, steadyLoad()) > bucket.capacity() + 1e-12)) {
      return new Wait("burst elsewhere", () -> "waiting: another node is being measured in a burst");
    }
    double credit = bucket.credit();
    double room = room();
    if (cost > room + 1e-12) {
      double need = need(cost, once, load());
      double rate = Math.max(0, room - load());
      long bursts = e.bursts;
      return new Wait("in bursts " + bursts, () -> String.format(Locale.ROOT, "measured in bursts (%d so far): measuring"
          + " it costs %.4f, more than the %.4f the budget leaves; the next %.0f s burst needs %.4f of the budget saved"
          + " up, %.4f now%s", bursts, cost, room, burstMillis(once) / 1000.0, need, credit, rate > 0 && need > credit
              ? String.format(Locale.ROOT, " (about %.0f s more)", (need - credit) / rate) : ""));
    }
    if (!(credit > 0) || credit < once - 1e-12) {
      double capacity = Math.max(bucket.capacity(), Double.isNaN(saving) ? 0 : saving);
      return new Wait("repaying", () -> String.format(Locale.ROOT, "waiting for budget: one-time costs (probes going in"
          + " and out, the JIT recompiling) are being repaid; the bucket holds %.4f of %.4f and this start needs %.4f",
          credit, capacity, once));
    }
    double attachedNow = attached;
    if (room > budget - attachedNow + 1e-12) {
      return new Wait("attached over", () -> String.format(Locale.ROOT, "waiting for budget: needs %.4f of the %.4f the"
          + " search measures with (being attached costs %.4f at rest, more than the budget %.4f leaves room for)", cost,
          room, attachedNow, budget));
    }
    if (attachedNow > 0) {
      return new Wait("attached", () -> String.format(Locale.ROOT, "waiting for budget: needs %.4f of the %.4f left"
          + " (budget %.4f, less %.4f for being attached while nothing is measured)", cost, room, budget, attachedNow));
    }
    return new Wait("budget", () -> String.format(Locale.ROOT, "waiting for budget: needs %.4f of %.4f", cost, budget));
  }

  /** The latest cost of the JIT's recompiling, as a fraction of the target's CPU; call it before {@link #observe}. */
  void recompiling(double fraction) {
    recompiling = Math.max(0, fraction);
  }

  /**
   * The latest observed costs: unattributed side cost, and per running node its share (absent: none yet).
   * The time since the previous call is charged to the bucket at these rates.
   */
  void observe(long atMillis, double side, Map<Integer, Double> perNode) {
    double seconds = (lastObservedMillis < 0 ? intervalMillis : Math.max(0, atMillis - lastObservedMillis)) / 1000.0;
    lastObservedMillis = atMillis;
    perNode.forEach((id, cost) -> {
      Entry e = running.get(id);
      if (e != null && !Double.isNaN(cost)) {
        calibration.observed(id, e.kind, e.raw, cost, !e.calibrated);
        e.calibrated = true;
        e.observed = cost;
        if (e.seenCosts.size() == SEEN) {
          e.seenCosts.removeFirst();
        }
        e.seenCosts.addLast(cost);
      }
    });
    bucket.charge(atMillis, seconds, room(), load(), side, recompiling);
    if (steadyLoad() > room() + 1e-12) {
      overSince = overSince < 0 ? atMillis - intervalMillis : overSince;
    } else {
      overSince = -1;
    }
  }

  /**
   * If the load has been over the budget for a sampling interval by {@code nowMillis}, takes running
   * nodes off, lowest priority first, until it fits; they go back to the queue. Nodes in {@code keepLast}
   * (those whose children are being tested on their evidence) go only when shedding every other node was
   * not enough: a shed node keeps its evidence but cannot conclude until it runs again, and its children wait on
   * that verdict. Returns them.
   */
  List<Integer> shed(long nowMillis, Set<Integer> keepLast) {
    List<Integer> shed = new ArrayList<>();
    if (overSince < 0 || nowMillis - overSince < intervalMillis) {
      return shed;
    }
    List<Entry> worstFirst = new ArrayList<>(running.values());
    worstFirst.remove(burst);
    worstFirst.sort(Comparator.comparing((Entry e) -> keepLast.contains(e.nodeId)).thenComparing(FIRST.reversed()));
    if (burst == null) {
      becomeBurst(worstFirst, nowMillis);
    }
    for (Entry e : worstFirst) {
      if (e == burst) {
        continue;
      }
      if (steadyLoad() <= room() + 1e-12) {
        break;
      }
      running.remove(e.nodeId);
      if (e.once > 0) {
        bucket.stopped(nowMillis);
      }
      e.predicted = e.seen();
      e.learned = true;
      e.observed = Double.NaN;
      shed.add(e.nodeId);
      String never = never(e, e.predicted, oneTimeCost(e));
      if (never != null) {
        rejected.put(e.nodeId, never);
      } else {
        queued.put(e.nodeId, e);
      }
    }
    overSince = steadyLoad() > room() + 1e-12 ? nowMillis : -1;
    shedThisStep = !shed.isEmpty();
    return shed;
  }
}
