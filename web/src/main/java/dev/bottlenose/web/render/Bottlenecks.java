package dev.bottlenose.web.render;

import dev.bottlenose.consultant.Hypothesis;
import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.MetricNeed;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.ShgNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The bottlenecks a search found, its true leaves, each with its evidence: metric, value against threshold, time tested. */
public final class Bottlenecks {
  private Bottlenecks() {}

  /** One bottleneck: the node and the evidence in words. */
  public record Bottleneck(ShgNode node, String metric, String comparison, double testedSeconds) {
    public String evidence() {
      return String.format(Locale.ROOT, "%s = %s %s threshold %s, tested %.1f s", metric, number(node.value()), comparison,
          number(node.threshold()), testedSeconds);
    }

    public Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("nodeId", node.id());
      m.put("hypothesis", node.hypothesis());
      m.put("focus", node.focus().toString());
      m.put("value", finite(node.value()));
      m.put("threshold", finite(node.threshold()));
      m.put("metric", metric);
      m.put("testedSeconds", testedSeconds);
      m.put("evidence", evidence());
      m.put("reason", node.reason());
      return m;
    }
  }

  /** The true leaves of {@code graph}, with the metrics of {@code catalog}'s hypotheses. */
  public static List<Bottleneck> of(SearchHistoryGraph graph, HypothesisCatalog catalog) {
    List<Bottleneck> list = new ArrayList<>();
    for (ShgNode n : graph.trueLeaves()) {
      Hypothesis h = catalog.get(n.hypothesis());
      String metric = h == null ? n.hypothesis() : h.needs().stream().map(MetricNeed::metric).collect(Collectors.joining(" / "));
      String comparison = h == null ? "vs" : switch (h.comparison()) {
        case ABOVE -> ">";
        case BELOW -> "<";
      };
      long end = n.concludedAtMillis() > 0 ? n.concludedAtMillis() : System.currentTimeMillis();
      double tested = n.testedSinceMillis() > 0 ? (end - n.testedSinceMillis()) / 1000.0 : 0;
      list.add(new Bottleneck(n, metric, comparison, tested));
    }
    return list;
  }

  /** The bottlenecks as text, one block each; "no bottleneck found" when there is none. */
  public static String text(List<Bottleneck> list) {
    if (list.isEmpty()) {
      return "no bottleneck found (no hypothesis tested true)\n";
    }
    StringBuilder sb = new StringBuilder();
    for (Bottleneck b : list) {
      sb.append("* ").append(b.node().hypothesis()).append(" at ").append(b.node().focus()).append('\n');
      sb.append("    ").append(b.evidence()).append('\n');
    }
    return sb.toString();
  }

  private static String number(double d) {
    return Double.isNaN(d) ? "?" : String.format(Locale.ROOT, "%.4g", d);
  }

  private static Object finite(double d) {
    return Double.isNaN(d) || Double.isInfinite(d) ? null : d;
  }
}
