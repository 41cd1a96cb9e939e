package dev.bottlenose.consultant;

/**
 * The state of a search-history-graph node, with the colour it is drawn in. One colour language everywhere
 * (the graph on the page and its exports, the JVMs page's status dots): red for a problem (true), green for
 * none (false), ochre for unknown, blue while under test, greys for not tested and stopped. The pages' style
 * sheet and {@code shg.js} write the same colours.
 */
public enum NodeState {
  /** Created, waiting for its turn or for room in the budget. */
  UNTESTED("#d0d0d0"),
  /** Its measurements are running; no verdict yet. */
  TESTING("#b3c7ec"),
  TRUE("#e06666"),
  FALSE("#b7e1c0"),
  /** No honest verdict: a metric unavailable, no data, or evidence that never settled. */
  UNKNOWN("#e3cf8f"),
  /** Ended without a verdict: pruned, parent no longer true, or the search ended. */
  STOPPED("#ececec");

  private final String colour;

  NodeState(String colour) {
    this.colour = colour;
  }

  /** The fill a node in this state is drawn with ({@code #rrggbb}). */
  public String colour() {
    return colour;
  }

  public String word() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  public static NodeState byWord(String word) {
    for (NodeState s : values()) {
      if (s.word().equals(word)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown node state '" + word + "'");
  }
}
