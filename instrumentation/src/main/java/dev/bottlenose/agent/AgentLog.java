package dev.bottlenose.agent;

/**
 * The agent's own messages (a session closed, a discovery step or a JFR change that failed). The agent is a guest
 * in the target: they go to the target's stderr only when the target runs with
 * {@code -Dbottlenose.agent.verbose=true}; otherwise nothing is written into the target's output. Never throws.
 */
public final class AgentLog {
  private static final boolean VERBOSE = Boolean.getBoolean("bottlenose.agent.verbose");

  private AgentLog() {}

  /** Writes {@code [bottlenose] message} to the target's stderr when asked to. */
  public static void line(String message) {
    if (VERBOSE) {
      try {
        System.err.println("[bottlenose] " + message);
      } catch (RuntimeException ignored) {
        // the target's stderr is its own business
      }
    }
  }
}
