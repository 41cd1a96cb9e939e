package dev.bottlenose.consultant;

/**
 * How a child node refines its parent: a more specific hypothesis, or a more specific focus; with the colour and dash
 * of its line wherever a graph is drawn (the page, the SVG and DOT exports), as {@link NodeState#colour()} is a node's.
 */
public enum Axis {
  WHY("#b8a21c", null),
  WHERE("#a35bb0", "6 4");

  private final String colour;
  private final String dash;

  Axis(String colour, String dash) {
    this.colour = colour;
    this.dash = dash;
  }

  public String word() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The colour of a line of this axis: why-lines gold, where-lines orchid. */
  public String colour() {
    return colour;
  }

  /** The dash pattern of a line of this axis (SVG's {@code stroke-dasharray}, in px); null: solid. */
  public String dash() {
    return dash;
  }
}
