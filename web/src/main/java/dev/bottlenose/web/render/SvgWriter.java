package dev.bottlenose.web.render;

import dev.bottlenose.consultant.Axis;
import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.ShgEdge;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.util.Locale;

/**
 * A search-history graph as a standalone SVG document, laid out by {@link ShgLayout}, in the DOT export's
 * (Paradyn's) colours: a box per node (hypothesis, the most specific part of its focus, state and value /
 * threshold, the full focus as its tooltip), why-edges pale gold, where-edges orchid.
 */
public final class SvgWriter {
  private SvgWriter() {}

  public static String write(SearchHistoryGraph graph) {
    ShgLayout layout = ShgLayout.of(graph);
    StringBuilder sb = new StringBuilder();
    sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
        + " font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n", layout.width(), layout.height(), layout.width(), layout.height()));
    sb.append("<title>search ").append(escape(graph.searchId())).append("</title>\n");
    sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    for (ShgEdge e : graph.edges()) {
      edge(layout, e, sb);
    }
    for (ShgLayout.Box b : layout.boxes()) {
      node(b, sb);
    }
    return sb.append("</svg>\n").toString();
  }

  private static void edge(ShgLayout layout, ShgEdge e, StringBuilder sb) {
    ShgLayout.Box from = layout.box(e.from());
    ShgLayout.Box to = layout.box(e.to());
    if (from == null || to == null) {
      return;
    }
    sb.append(String.format(Locale.ROOT, "<line class=\"edge %s\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>\n",
        e.axis().word(), from.x() + ShgLayout.WIDTH / 2, from.y() + ShgLayout.HEIGHT, to.x() + ShgLayout.WIDTH / 2, to.y(),
        e.axis() == Axis.WHY ? "palegoldenrod" : "orchid"));
  }

  private static void node(ShgLayout.Box b, StringBuilder sb) {
    ShgNode n = b.node();
    sb.append(String.format(Locale.ROOT, "<g class=\"node %s\" id=\"node-%d\" transform=\"translate(%d,%d)\">\n", n.state().word(), n.id(), b.x(), b.y()));
    sb.append("<title>").append(escape(n.hypothesis() + " " + n.focus() + (n.reason() == null ? "" : "\n" + n.reason()))).append("</title>\n");
    sb.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" rx=\"4\" fill=\"%s\" stroke=\"#444\"/>\n",
        ShgLayout.WIDTH, ShgLayout.HEIGHT, n.state().colour()));
    text(6, 15, "bold", n.hypothesis(), sb);
    text(6, 30, "normal", shortFocus(n), sb);
    String value = Double.isNaN(n.value()) ? "" : String.format(Locale.ROOT, "  %.3f / %.3f", n.value(), n.threshold());
    text(6, 45, "normal", n.state().word() + value, sb);
    sb.append("</g>\n");
  }

  private static void text(int x, int y, String weight, String s, StringBuilder sb) {
    String clipped = s.length() > 34 ? "\u2026" + s.substring(s.length() - 33) : s;
    sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"%s\">%s</text>\n", x, y, weight, escape(clipped)));
  }

  /** The deepest non-root part of the focus (e.g. {@code isPrime(I)Z}), or "whole program". */
  static String shortFocus(ShgNode n) {
    String best = null;
    int depth = 0;
    for (Hierarchy h : Hierarchy.values()) {
      ResourcePath p = n.focus().get(h);
      if (p != null && !p.isRoot() && p.depth() > depth) {
        depth = p.depth();
        best = p.name();
      }
    }
    return best == null ? "whole program" : best;
  }

  static String escape(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '&' -> sb.append("&amp;");
        case '"' -> sb.append("&quot;");
        default -> sb.append(c < 0x20 && c != '\n' && c != '\t' ? ' ' : c);
      }
    }
    return sb.toString();
  }
}
