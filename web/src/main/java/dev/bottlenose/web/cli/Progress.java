package dev.bottlenose.web.cli;

import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.consultant.bus.SearchRunner;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Live progress of a search on a stream: one line per verdict (a node turning true, false or unknown) as
 * its events arrive, and a status line every {@value #STATUS_SECONDS} s with the counts by state.
 */
final class Progress implements AutoCloseable {
  static final int STATUS_SECONDS = 5;
  private static final Set<String> VERDICTS = Set.of("true", "false", "unknown");
  private final Vertx vertx;
  private final PrintStream out;
  private final long startedAt = System.currentTimeMillis();
  private final MessageConsumer<JsonObject> consumer;
  private SearchRunner runner;
  private long timer = -1;

  /** Listens to the events of search {@code searchId} (call before the search starts, so none is missed). */
  Progress(Vertx vertx, String searchId, PrintStream out) {
    this.vertx = vertx;
    this.out = out;
    this.consumer = vertx.eventBus().localConsumer(SearchRunner.events(searchId), m -> onEvent(m.body()));
  }

  /** Starts the periodic status line for the running search. */
  void follow(SearchRunner runner) {
    this.runner = runner;
    timer = vertx.setPeriodic(STATUS_SECONDS * 1000L, t -> out.println(elapsed() + "  " + counts(runner.search().graph())));
  }

  private void onEvent(JsonObject e) {
    String type = e.getString("type");
    if ("nodeChanged".equals(type)) {
      JsonObject node = e.getJsonObject("node");
      if (VERDICTS.contains(node.getString("state"))) {
        out.println(elapsed() + "  " + String.format(Locale.ROOT, "%-7s", node.getString("state")) + " " + node.getString("hypothesis")
            + " " + node.getValue("focus") + value(node));
      }
    } else if ("searchEnded".equals(type)) {
      out.println(elapsed() + "  search ended: " + e.getString("reason"));
    }
  }

  private static String value(JsonObject node) {
    if (!(node.getValue("value") instanceof Number v)) {
      return "";
    }
    Object t = node.getValue("threshold");
    return String.format(Locale.ROOT, "  %.4g / %s", v.doubleValue(), t instanceof Number n ? String.format(Locale.ROOT, "%.4g", n.doubleValue()) : "?");
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
