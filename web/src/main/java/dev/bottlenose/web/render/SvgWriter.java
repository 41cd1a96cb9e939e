package dev.bottlenose.web.render;

import dev.bottlenose.consultant.Axis;
import dev.bottlenose.consultant.Findings;
import dev.bottlenose.consultant.SavedSearch;
import java.util.List;
import java.util.Locale;

/**
 * A search-history graph as a standalone SVG document, drawn as the page draws it: the view a user sees first
 * ({@link ShgView.Options#DEFAULT}: a large graph on the paths to its findings, many false leaves as one box), or the
 * one the page shows with the user's filter, collapsed nodes and opened groups ({@link ShgView.Options}), laid
 * out by {@link ShgLayout}, boxes in their states' colours with the page's labels, why-lines solid and where-lines
 * dashed ({@link ShgStyle}), each box's tooltip saying the whole focus, the value against the threshold and why.
 */
public final class SvgWriter {
  private SvgWriter() {}

  /** {@code search}'s graph as a user first sees it on the page. */
  public static String write(SavedSearch search) {
    return write(search, ShgView.Options.DEFAULT);
  }

  /** {@code search}'s graph as the page shows it with {@code options} (its filter, collapsed nodes, opened groups). */
  public static String write(SavedSearch search, ShgView.Options options) {
    ShgView view = ShgView.of(search.graph(), search.hypotheses(), ShgView.nodesOf(Findings.of(search)), options);
    return write(ShgLayout.of(view), "search " + search.id());
  }

  /** {@code layout} as an SVG document titled {@code title}. */
  public static String write(ShgLayout layout, String title) {
    StringBuilder sb = new StringBuilder();
    int width = (int) Math.ceil(layout.width());
    int height = (int) Math.ceil(layout.height());
    sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"shg\" width=\"%d\" height=\"%d\""
        + " viewBox=\"0 0 %d %d\" font-family=\"%s\" font-size=\"%d\">\n", width, height, width, height,
        NodeLabels.FONT.replace("'", "&apos;"), NodeLabels.FONT_SIZE));
    sb.append("<title>").append(escape(title)).append("</title>\n");
    sb.append("<defs>");
    for (Axis a : Axis.values()) {
      sb.append("<marker id=\"arrow-").append(a.word()).append("\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"6\""
          + " markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0L8,4L0,8z\" fill=\"").append(ShgStyle.stroke(a)).append("\"/></marker>");
    }
    sb.append("</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    sb.append("<g class=\"edges\" fill=\"none\" stroke-width=\"1.5\">\n");
    for (ShgLayout.Route r : layout.routes()) {
      line(r, sb);
    }
    sb.append("</g>\n<g class=\"nodes\">\n");
    for (ShgLayout.Placed p : layout.boxes()) {
      box(p, sb);
    }
    return sb.append("</g>\n</svg>\n").toString();
  }

  private static void line(ShgLayout.Route r, StringBuilder sb) {
    Axis a = r.line().axis();
    String dash = ShgStyle.dash(a);
    sb.append(String.format(Locale.ROOT, "<path class=\"edge %s%s\" d=\"%s\" stroke=\"%s\"%s stroke-opacity=\"%s\""
        + " marker-end=\"url(#arrow-%s)\"/>\n", a.word(), r.line().primary() ? "" : " extra", path(r.points()), ShgStyle.stroke(a),
        dash == null ? "" : " stroke-dasharray=\"" + dash + "\"", r.line().primary() ? "0.9" : "0.45", a.word()));
  }

  /** The SVG path through {@code points}: straight segments, as ELK routed them. */
  static String path(List<double[]> points) {
    StringBuilder d = new StringBuilder();
    for (double[] p : points) {
      d.append(d.length() == 0 ? "M" : "L").append(number(p[0])).append(',').append(number(p[1]));
    }
    return d.toString();
  }

  private static void box(ShgLayout.Placed p, StringBuilder sb) {
    ShgView.Box b = p.box();
    sb.append(String.format(Locale.ROOT, "<g class=\"node %s%s\" data-id=\"%s\" transform=\"translate(%s,%s)\">\n", b.state().word(),
        b.isGroup() ? " group" : "", b.key(), number(p.x()), number(p.y())));
    sb.append("<title>").append(escape(b.tooltip())).append("</title>\n");
    sb.append(String.format(Locale.ROOT, "<rect width=\"%s\" height=\"%s\" rx=\"3\" fill=\"%s\" stroke=\"%s\" stroke-width=\"0.7\"%s/>\n",
        number(p.width()), number(p.height()), b.state().colour(), ShgStyle.OUTLINE, b.isGroup() ? " stroke-dasharray=\"3 2\"" : ""));
    sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%s\" dy=\"0.35em\" fill=\"%s\">%s</text>\n", ShgLayout.PAD,
        number(p.height() / 2), ShgStyle.TEXT, escape(b.label())));
    if (b.collapsible()) {
      sb.append(String.format(Locale.ROOT, "<g class=\"toggle\" transform=\"translate(%s,%s)\"><circle r=\"%d\" fill=\"#fff\""
          + " stroke=\"%s\"/><text text-anchor=\"middle\" dy=\"0.35em\" font-size=\"10\">%s</text></g>\n",
          number(p.width() - ShgLayout.TOGGLE / 2.0), number(p.height() / 2), ShgLayout.TOGGLE_RADIUS, ShgStyle.OUTLINE,
          b.collapsed() ? "+" : "\u2212"));
    }
    sb.append("</g>\n");
  }

  /** A coordinate with at most one decimal. */
  private static String number(double v) {
    double r = ShgLayout.round(v);
    return r == Math.rint(r) ? Long.toString((long) r) : Double.toString(r);
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
