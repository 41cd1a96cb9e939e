package dev.bottlenose.consultant;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Decides which nodes may be tested within the overhead budget (a fraction of the target's CPU): the
 * admission queue and shedding; what starts cost once is paid from a {@link OneTimeBucket}, and how far
 * predictions were off is learned by a {@link CostCalibration}.
 *
 * <p>The budget is against the program without the tool, so what being attached costs while nothing is
 * measured ({@link #attached}: the agent's and JFR's threads at rest) comes off it first; the nodes share
 * the {@link #room} left. At 1% on a two-core target at rest the attached agent takes about half of it.
 *
 * <p>The load is, per running node, its observed cost, or its predicted cost until a first observed cost
 * for it arrived (Paradyn's pending cost). Waiting nodes are admitted in priority order (lower key first,
 * then first come) when the load + its own cost ≤ room and the bucket allows its one-time cost; a cheaper
 * node may pass one that does not fit. A node predicted to cost more than the whole budget is rejected. A
 * cost sample covers one sampling interval: when one shows the load over the budget, it has been over for
 * that interval, and the lowest-priority running nodes are shed at once until it fits again, so the cost
 * never stays over the budget for more than one interval. The side cost of inserting and removing probes
 * and the JIT's recompiling shed nothing: they are already paid, and removing probes would retransform and
 * recompile once more. Shed nodes wait in the queue with what they were seen to cost as their new prediction.
 *
 * <p>A node queued within another of its kind (a where-refinement: a class below its package) measures
 * a subset of what that one measured, so once the enclosing node has been observed, the child's expected
 * cost is at most the enclosing node's observed cost, shared out in proportion to the two predictions.
 * Without it, a package's counters seen at 700 times their prediction would scale every class below it by
 * 700, each class alone would seem to need the whole package's cost, and the classes would wait for each
 * other. On the compute benchmark one package's counters going in and out cost 100–170 ms of the agent's
 * CPU and a burst of compiling, several times a 1% budget's share of a 20 s window: hence the bucket.
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
    double observed = Double.NaN;

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
  }

  private static final Comparator<Entry> FIRST = Comparator.comparingDouble((Entry e) -> e.priority).thenComparingLong(e -> e.order);

  BudgetScheduler(double budget, long intervalMillis, int maxActive, double burstSeconds) {
    if (!(budget > 0 && budget < 1)) {
      throw new IllegalArgumentException("budget must be a fraction of the target's CPU in (0, 1), is " + budget);
    }
    if (!(burstSeconds >= 0)) {
      throw new IllegalArgumentException("burst seconds must be >= 0, is " + burstSeconds);
    }
    this.budget = budget;
    this.intervalMillis = intervalMillis;
    this.maxActive = maxActive;
    this.bucket = new OneTimeBucket(budget, intervalMillis, burstSeconds);
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

  /**
   * What the search may spend: the budget less what being attached costs the target while nothing is
   * measured ({@link #attached}), never below zero.
   */
  double room() {
    return Math.max(0, budget - attached);
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
    if (predictedCost > budget) {
      rejected.put(nodeId, String.format(Locale.ROOT, "predicted cost %.4f exceeds the whole budget %.4f", predictedCost, budget));
      return;
    }
    if (!bucket.fits(once)) {
      rejected.put(nodeId, bucket.overBurst(once));
      return;
    }
    Entry e = new Entry(nodeId, kind, priority, predictedCost, enclosing, seq++);
    e.once = once;
    queued.put(nodeId, e);
  }

  /** Forgets a queued or running node; true if it was known. */
  boolean remove(int nodeId) {
    Entry e = running.remove(nodeId);
    if (e != null && e.once > 0) {
      bucket.stopped(lastObservedMillis);
    }
    return queued.remove(nodeId) != null | e != null;
  }

  boolean isQueued(int nodeId) {
    return queued.containsKey(nodeId);
  }

  boolean hasQueued() {
    return !queued.isEmpty();
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

  /** How much more the measurements of nodes of {@code kind} have cost than predicted so far (at least 1). */
  double calibration(String kind) {
    return calibration.factor(kind);
  }

  private double expected(Entry e) {
    return e.learned ? e.predicted : calibration.expected(e.kind, e.raw, e.within);
  }

  /**
   * Starts as many queued nodes as fit, best first; returns them in that order. Right after a shed
   * nothing starts until the next cost sample shows the room is real.
   */
  List<Integer> admit(long nowMillis) {
    List<Integer> started = new ArrayList<>();
    if (shedThisStep) {
      shedThisStep = false;
      return started;
    }
    List<Entry> order = new ArrayList<>(queued.values());
    order.sort(FIRST);
    double load = load();
    double left = bucket.credit();
    for (Entry e : order) {
      if (running.size() >= maxActive) {
        break;
      }
      double cost = expected(e);
      double once = oneTimeCost(e);
      if (!bucket.fits(once)) {
        queued.remove(e.nodeId);
        rejected.put(e.nodeId, bucket.overBurst(once));
        continue;
      }
      if (left > 0 && load + cost <= room() + 1e-12 && left >= once - 1e-12) {
        e.predicted = cost;
        e.learned = true;
        queued.remove(e.nodeId);
        running.put(e.nodeId, e);
        if (e.once > 0) {
          bucket.started(e.nodeId, e.kind, e.raw, nowMillis);
        }
        load += cost;
        left -= once;
        started.add(e.nodeId);
      }
    }
    return started;
  }

  /** Why a queued node waits, or null if it does not. */
  String waitReason(int nodeId) {
    Entry e = queued.get(nodeId);
    if (e == null) {
      return null;
    }
    if (running.size() >= maxActive) {
      return "waiting: " + maxActive + " nodes are being tested already";
    }
    double once = oneTimeCost(e);
    double credit = bucket.credit();
    if (!(credit > 0) || credit < once - 1e-12) {
      return String.format(Locale.ROOT, "waiting for budget: one-time costs (probes going in and out, the JIT"
          + " recompiling) are being repaid; the bucket holds %.4f of %.4f and this start needs %.4f",
          credit, bucket.capacity(), once);
    }
    if (attached > 0) {
      return String.format(Locale.ROOT, "waiting for budget: needs %.4f of the %.4f left (budget %.4f, less %.4f for"
          + " being attached while nothing is measured)", expected(e), room(), budget, attached);
    }
    return String.format(Locale.ROOT, "waiting for budget: needs %.4f of %.4f", expected(e), budget);
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
        calibration.observed(id, e.kind, e.raw, cost, Double.isNaN(e.observed));
        e.observed = cost;
      }
    });
    bucket.charge(atMillis, seconds, room(), load(), side, recompiling);
    if (load() > room() + 1e-12) {
      overSince = overSince < 0 ? atMillis - intervalMillis : overSince;
    } else {
      overSince = -1;
    }
  }

  /**
   * If the load has been over the budget for a sampling interval by {@code nowMillis}, takes running
   * nodes off, lowest priority first, until it fits; they go back to the queue. Nodes in {@code keepLast}
   * (those whose children are being tested on their evidence) go only when shedding every other node was
   * not enough: shedding one throws away its evidence and with it its children's. Returns them.
   */
  List<Integer> shed(long nowMillis, Set<Integer> keepLast) {
    List<Integer> shed = new ArrayList<>();
    if (overSince < 0 || nowMillis - overSince < intervalMillis) {
      return shed;
    }
    List<Entry> worstFirst = new ArrayList<>(running.values());
    worstFirst.sort(Comparator.comparing((Entry e) -> keepLast.contains(e.nodeId)).thenComparing(FIRST.reversed()));
    for (Entry e : worstFirst) {
      if (load() <= room() + 1e-12) {
        break;
      }
      running.remove(e.nodeId);
      if (e.once > 0) {
        bucket.stopped(nowMillis);
      }
      e.predicted = Math.max(e.predicted, e.load());
      e.learned = true;
      e.observed = Double.NaN;
      shed.add(e.nodeId);
      if (e.predicted > budget) {
        rejected.put(e.nodeId, String.format(Locale.ROOT, "measured cost %.4f exceeds the whole budget %.4f", e.predicted, budget));
      } else {
        queued.put(e.nodeId, e);
      }
    }
    overSince = load() > room() + 1e-12 ? nowMillis : -1;
    shedThisStep = !shed.isEmpty();
    return shed;
  }
}
