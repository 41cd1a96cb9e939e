package dev.bottlenose.web.cli;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.consultant.Findings;
import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.Search;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.consultant.bus.SearchAnnouncer;
import dev.bottlenose.consultant.bus.SearchRunner;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Live progress of a search on a stream: one line per node found true (and per top-level hypothesis
 * decided) as its events arrive, with its value in its hypothesis's unit, and a status line every {@value
 * #STATUS_SECONDS} s with the counts by state and where the budget goes (the running nodes' measuring and being
 * attached at rest). The many false nodes of a wide refinement show in the counts only.
 */
final class Progress implements AutoCloseable {
  static final int STATUS_SECONDS = 5;
  private static final Set<String> VERDICTS = Set.of("true", "false", "unknown");
  private final Vertx vertx;
  private final PrintStream out;
  private final HypothesisCatalog hypotheses;
  private final long startedAt = System.currentTimeMillis();
  private final MessageConsumer<JsonObject> consumer;
  private SearchRunner runner;
  private long timer = -1;

  /**
   * Listens to the events of search {@code searchId}, whose hypotheses are {@code hypotheses} (call before the search
   * starts, so none is missed).
   */
  Progress(Vertx vertx, String searchId, HypothesisCatalog hypotheses, PrintStream out) {
    this.vertx = vertx;
    this.out = out;
    this.hypotheses = hypotheses;
    this.consumer = vertx.eventBus().localConsumer(Addresses.searchEvents(searchId), m -> onEvent(m.body()));
  }

  /** Starts the periodic status line for the running search. */
  void follow(SearchRunner runner) {
    this.runner = runner;
    timer = vertx.setPeriodic(STATUS_SECONDS * 1000L, t -> out.println(elapsed() + "  " + counts(runner.search().graph())
        + "; " + spending(runner.search().spending())));
  }

  private void onEvent(JsonObject e) {
    String type = e.getString("type");
    if ("nodeChanged".equals(type)) {
      JsonObject node = e.getJsonObject("node");
      String state = node.getString("state");
      boolean topLevel = SearchAnnouncer.FAMILIES.contains(node.getString("hypothesis")) && focus(node).equals("<>");
      if ("true".equals(state) || topLevel && VERDICTS.contains(state)) {
        out.println(elapsed() + "  " + String.format(Locale.ROOT, "%-7s", state) + " " + node.getString("hypothesis")
            + " " + focus(node) + value(node, hypotheses));
      }
    } else if ("searchEnded".equals(type)) {
      out.println(elapsed() + "  search ended: " + e.getString("reason"));
    }
  }

  /** The focus in its text form, {@code </Code/p/C/m()V, /Threads/main>}. */
  static String focus(JsonObject node) {
    Object f = node.getValue("focus");
    if (f instanceof io.vertx.core.json.JsonArray a) {
      return "<" + String.join(", ", a.stream().map(String::valueOf).toList()) + ">";
    }
    return String.valueOf(f);
  }

  /**
   * A node's value against its threshold in its hypothesis's unit, {@code   1.792 s per second (threshold 0.3)}
   * ({@link Findings#valueText}); nothing while it has no value.
   */
  static String value(JsonObject node, HypothesisCatalog hypotheses) {
    if (!(node.getValue("value") instanceof Number v)) {
      return "";
    }
    double threshold = node.getValue("threshold") instanceof Number t ? t.doubleValue() : Double.NaN;
    return "  " + Findings.valueText(hypotheses.get(node.getString("hypothesis")), v.doubleValue(), threshold);
  }

  static String counts(SearchHistoryGraph graph) {
    Map<NodeState, Long> by = new java.util.EnumMap<>(NodeState.class);
    for (ShgNode n : graph.nodes()) {
      by.merge(n.state(), 1L, Long::sum);
    }
    StringBuilder sb = new StringBuilder(graph.nodes().size() + " nodes:");
    by.forEach((s, c) -> sb.append(' ').append(c).append(' ').append(s.word()).append(','));
    sb.setLength(sb.length() - 1);
    return sb.toString();
  }

  /**
   * {@code measuring 0.31% + 0.48% attached, of the 1.00% budget}: where the budget goes, as percentages; during a
   * burst, {@code (8.20% of it a burst, paid from budget saved up)}; when being attached takes so much that the
   * search measures on top of it ({@link Search.Spending#room}), the line says so; then what the tool's own
   * processes take besides ({@link #toolProcesses}), and what the target's JIT has spent on the tool's behalf
   * ({@link #toolJit}).
   */
  static String spending(Search.Spending s) {
    String line = String.format(Locale.ROOT, "measuring %.2f%% + %.2f%% attached, of the %.2f%% budget", s.measuring() * 100,
        s.attached() * 100, s.budget() * 100);
    if (s.attachedOverRoom()) {
      line += String.format(Locale.ROOT, "; being attached takes more than the budget leaves, so the search measures"
          + " within %.2f%% on top", s.room() * 100);
    }
    if (s.burst() > 0) {
      line += String.format(Locale.ROOT, " (%.2f%% of it a burst, paid from budget saved up)", s.burst() * 100);
    }
    return line + toolProcesses(s) + toolJit(s);
  }

  /**
   * {@code ; the target's JIT has compiled for the tool 6.2 s so far, 4.10% of its CPU since the attach}: the tool's
   * own code, the classes its probes changed, and what the attach threw away, compiled again (a JVM attached to
   * later throws away its compiled code the first time a class is changed, JFR's start included); nothing while
   * not known.
   */
  static String toolJit(Search.Spending s) {
    if (Double.isNaN(s.toolJitSeconds()) || Double.isNaN(s.toolJit())) {
      return "";
    }
    return String.format(Locale.ROOT, "; the target's JIT has compiled for the tool %.1f s so far, %.2f%% of its CPU"
        + " since the attach", s.toolJitSeconds(), s.toolJit() * 100);
  }

  /**
   * {@code ; besides, the tool's own processes on this machine take 5.10% (daemon 2.40%, this command 2.70%)}:
   * what the daemon and this command (a {@code search} runs on the target's machine) take from the cores the
   * target runs on, outside the budget; {@code (this command 5.10%)} when it serves its target itself (or its
   * daemon's share is not known yet); nothing while neither is known.
   */
  static String toolProcesses(Search.Spending s) {
    double daemon = s.daemon();
    double command = s.searcher();
    if (Double.isNaN(daemon) && Double.isNaN(command)) {
      return "";
    }
    double total = (Double.isNaN(daemon) ? 0 : daemon) + (Double.isNaN(command) ? 0 : command);
    return String.format(Locale.ROOT, "; besides, the tool's own processes on this machine take %.2f%% (%sthis command"
        + " %s)", total * 100, Double.isNaN(daemon) ? "" : "daemon " + percent(daemon) + ", ", percent(command));
  }

  /**
   * What the search cost in all, written once it has ended: {@code what the search cost: this command 9.8 s of CPU in
   * 52 s since it started (0.19 of a core), on the target's machine; the target's JIT compiled for the tool 19.7 s}.
   * The command's whole CPU from its start ({@code commandCpuSeconds} over {@code commandSeconds}): joining, the
   * daemon it serves itself, the attach and the search, which the per-interval shares leave out while it starts; the
   * JIT's seconds are the last status line's ({@link Search.Spending#toolJitSeconds}), left out while not known. A
   * daemon in a process of its own ({@code daemon} known) is named as not counted here.
   */
  static String totalCost(double commandCpuSeconds, double commandSeconds, Search.Spending last) {
    StringBuilder line = new StringBuilder("what the search cost: ");
    if (commandCpuSeconds >= 0 && commandSeconds > 0) {
      line.append(String.format(Locale.ROOT, "this command %.1f s of CPU in %.0f s since it started (%.2f of a core),"
          + " on the target's machine", commandCpuSeconds, commandSeconds, commandCpuSeconds / commandSeconds));
      if (last != null && !Double.isNaN(last.daemon())) {
        line.append(" (the daemon's own process not counted)");
      }
    } else {
      line.append("this command's CPU is not known");
    }
    if (last != null && !Double.isNaN(last.toolJitSeconds())) {
      line.append(String.format(Locale.ROOT, "; the target's JIT compiled for the tool %.1f s", last.toolJitSeconds()));
    }
    return line.toString();
  }

  private static String percent(double fraction) {
    return Double.isNaN(fraction) ? "unknown" : String.format(Locale.ROOT, "%.2f%%", fraction * 100);
  }

  private String elapsed() {
    return String.format(Locale.ROOT, "%6.1fs", (System.currentTimeMillis() - startedAt) / 1000.0);
  }

  @Override
  public void close() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    consumer.unregister();
  }
}
