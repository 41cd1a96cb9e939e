package dev.bottlenose.consultant;

/** The state of a search-history-graph node. */
public enum NodeState {
  /** Created, waiting for its turn or for room in the budget. */
  UNTESTED,
  /** Its measurements are running; no verdict yet. */
  TESTING,
  TRUE,
  FALSE,
  /** No honest verdict: a metric unavailable, no data, or evidence that never settled. */
  UNKNOWN,
  /** Ended without a verdict: pruned, parent no longer true, or the search ended. */
  STOPPED;

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
