package dev.bottlenose.web.render;

import dev.bottlenose.consultant.Axis;
import dev.bottlenose.consultant.NodeState;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The search-history graph's colour language, in one place: a node's fill is its state's ({@link NodeState#colour()},
 * which the JVMs page's status dots share), why-lines solid gold, where-lines dashed orchid. The SVG export writes
 * them and every laid-out view carries them ({@link #legend()}), so the page draws and explains the graph in the
 * same colours.
 */
public final class ShgStyle {
  /** A box's outline. */
  public static final String OUTLINE = "#555";
  /** A label's colour. */
  public static final String TEXT = "#111";

  private ShgStyle() {}

  /** The colour of a line of {@code axis}. */
  public static String stroke(Axis axis) {
    return axis.colour();
  }

  /** The dash pattern of a line of {@code axis} (SVG {@code stroke-dasharray}); null: solid. */
  public static String dash(Axis axis) {
    return axis.dash();
  }

  /** What a line of {@code axis} means. */
  public static String meaning(Axis axis) {
    return axis == Axis.WHY ? "why (more specific hypothesis)" : "where (more specific focus)";
  }

  /** The states' fills and the lines' strokes, dashes and meanings, for the page's drawing and its legend. */
  public static Map<String, Object> legend() {
    Map<String, Object> states = new LinkedHashMap<>();
    for (NodeState s : NodeState.values()) {
      states.put(s.word(), s.colour());
    }
    Map<String, Object> lines = new LinkedHashMap<>();
    for (Axis a : Axis.values()) {
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("stroke", stroke(a));
      line.put("dash", dash(a));
      line.put("label", meaning(a));
      lines.put(a.word(), line);
    }
    Map<String, Object> legend = new LinkedHashMap<>();
    legend.put("states", states);
    legend.put("lines", lines);
    return legend;
  }
}
