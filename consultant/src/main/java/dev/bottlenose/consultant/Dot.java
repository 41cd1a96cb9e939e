package dev.bottlenose.consultant;

/**
 * Graphviz DOT text of a search-history graph in the page's colour language: nodes in their states' colours ({@link
 * NodeState#colour}), lines in their axis's ({@link Axis#colour}), where-lines dashed.
 */
final class Dot {

  static String write(SearchHistoryGraph g, HypothesisCatalog hypotheses) {
    StringBuilder sb = new StringBuilder("digraph shg {\n  rankdir=TB;\n  node [shape=box, style=filled, fontname=\"Helvetica\"];\n");
    for (ShgNode n : g.nodes()) {
      sb.append("  n").append(n.id()).append(" [label=\"").append(escape(label(n, hypotheses.get(n.hypothesis()))))
          .append("\", fillcolor=\"").append(n.state().colour()).append("\"];\n");
    }
    for (ShgEdge e : g.edges()) {
      sb.append("  n").append(e.from()).append(" -> n").append(e.to()).append(" [color=\"")
          .append(e.axis().colour()).append(e.axis().dash() == null ? "\"" : "\", style=dashed").append(", penwidth=2];\n");
    }
    return sb.append("}\n").toString();
  }

  /** A node's box: its hypothesis, focus, state and value against the threshold ({@link Findings#valueText}). */
  private static String label(ShgNode n, Hypothesis h) {
    String value = Double.isNaN(n.value()) ? "" : "\n" + Findings.valueText(h, n.value(), n.threshold());
    return n.hypothesis() + "\n" + n.focus() + "\n" + n.state().word() + value;
  }

  private static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  private Dot() {}
}
