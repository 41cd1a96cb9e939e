package dev.bottlenose.consultant;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The bucket one-time costs are paid from, and what each kind of node's start was seen to cost once.
 *
 * <p>The budget flows in at its own rate; everything the search spends flows out: the running nodes'
 * costs, the side cost of inserting and removing probes (the agent's retransformations), and the JIT
 * recompiling what those threw away, within {@value #RECOMPILING_INTERVALS} intervals of a node that
 * inserts probes starting or stopping (before that, it is the attach's aftermath: starting JFR throws
 * compiled code away, and a search started right after an attach would wait for that). It holds at most
 * {@code budget × burstSeconds} and starts full; while a start that needs more waits, it may fill up to
 * what that start needs ({@link #saveUpTo}). Nothing new starts while it is overdrawn, so over a search
 * the one-time costs stay within the budget too, not only the running costs of each interval.
 *
 * <p>What a start costs once is predicted by the port (the JIT compiling the code again) and learned per
 * kind: the one-time spending of the {@value #SETTLING_INTERVALS} intervals just after nodes with such a
 * prediction start is shared out among them in proportion to their running predictions (which grow with
 * the number of probes); the larger of the two counts.
 */
final class OneTimeBucket {
  /** After a node starts, the one-time spending of this many sampling intervals is put down to it. */
  static final int SETTLING_INTERVALS = 3;
  /** How long after a node that inserts probes starts or stops the JIT's recompiling is put down to it. */
  static final int RECOMPILING_INTERVALS = 10;

  private final double budget;
  private final long intervalMillis;
  private final double capacity;
  private double credit;
  /** What it may hold beyond its capacity while a start that needs that much waits (NaN: nothing). */
  private double saving = Double.NaN;
  /** When a node that inserts probes last started or stopped; the JIT's recompiling is charged only after one. */
  private long lastRetransformMillis = Long.MIN_VALUE / 2;
  /** Per kind: one-time cost put down to its nodes (fraction × seconds), and the sum of their predictions. */
  private final Map<String, double[]> seen = new HashMap<>();
  /** Nodes started within the last {@value #SETTLING_INTERVALS} intervals: their kind and raw prediction, and when. */
  private final Map<Settling, Long> settling = new LinkedHashMap<>();

  private record Settling(int nodeId, String kind, double raw) {}

  OneTimeBucket(double budget, long intervalMillis, double burstSeconds) {
    this.budget = budget;
    this.intervalMillis = intervalMillis;
    this.capacity = budget * burstSeconds;
    this.credit = capacity;
  }

  /** What the bucket holds now (fraction × seconds); negative while one-time costs overdraw it. */
  double credit() {
    return credit;
  }

  double capacity() {
    return capacity;
  }

  /**
   * What starting a node of {@code kind} is expected to cost once: the port's prediction {@code once}, or
   * more if that kind's starts were seen to cost more so far (scaled by the node's running prediction {@code raw}).
   */
  double expected(String kind, double once, double raw) {
    double[] s = seen.get(kind);
    return Math.max(once, s == null || !(s[1] > 0) ? 0 : s[0] / s[1] * raw);
  }

  /**
   * While a start that needs {@code amount} (more than the capacity) waits, the bucket fills up to that
   * instead of its capacity; NaN: up to its capacity again.
   */
  void saveUpTo(double amount) {
    saving = amount;
  }

  /** A node that inserts probes started: its recompiling is charged from now, and its settling intervals begin. */
  void started(int nodeId, String kind, double raw, long nowMillis) {
    lastRetransformMillis = nowMillis;
    settling.put(new Settling(nodeId, kind, raw), nowMillis);
    seen.computeIfAbsent(kind, k -> new double[2])[1] += raw;
  }

  /** A node that inserts probes stopped (its probes come out): the recompiling is charged again from now. */
  void stopped(long nowMillis) {
    lastRetransformMillis = nowMillis;
  }

  /**
   * Charges {@code seconds} at these rates: the budget's {@code room} flows in, the running {@code load}, the
   * unattributed {@code side} cost and (if it follows a start or stop of ours) the {@code recompiling} flow out.
   */
  void charge(long atMillis, double seconds, double room, double load, double side, double recompiling) {
    boolean ours = atMillis - lastRetransformMillis <= RECOMPILING_INTERVALS * intervalMillis;
    double once = (side + (ours ? recompiling : 0)) * seconds;
    double cap = Double.isNaN(saving) ? capacity : Math.max(capacity, saving);
    credit = Math.min(cap, credit + (room - load) * seconds - once);
    putDown(atMillis, once);
  }

  /**
   * Shares {@code spent} (one-time cost) among the nodes still settling that were predicted to cost
   * something once (they insert probes), in proportion to their predictions. Nodes that only watch the
   * target's events get none: the recompiling right after an attach (starting JFR throws compiled code
   * away) would otherwise be put down to the first sampled node, and every node of its kind rejected.
   */
  private void putDown(long atMillis, double spent) {
    settling.values().removeIf(since -> atMillis - since > SETTLING_INTERVALS * intervalMillis);
    double raw = settling.keySet().stream().mapToDouble(Settling::raw).sum();
    if (settling.isEmpty() || !(raw > 0)) {
      return;
    }
    for (Settling s : settling.keySet()) {
      seen.computeIfAbsent(s.kind(), k -> new double[2])[0] += spent * s.raw() / raw;
    }
  }
}
