package dev.bottlenose.agent;

import java.lang.instrument.Instrumentation;

/**
 * The agent's entry point, for {@code -javaagent} and for attaching at run time. It only hands off:
 * the first load starts the agent runtime, every load opens a session to the daemon named in the
 * options, and nothing ever escapes into the host.
 */
public final class AgentMain {
  public static void premain(String options, Instrumentation instrumentation) {
    start(options, instrumentation, "premain");
  }

  public static void agentmain(String options, Instrumentation instrumentation) {
    start(options, instrumentation, "agentmain");
  }

  private static void start(String options, Instrumentation instrumentation, String loadedBy) {
    try {
      AgentOptions parsed = AgentOptions.parse(options);
      AgentRuntime.get(instrumentation).openSession(parsed, loadedBy);
    } catch (Throwable t) {
      try {
        System.err.println("[bottlenose] agent not started: " + t);
      } catch (Throwable ignored) {
        // stderr itself failed: nothing left to tell
      }
    }
  }

  private AgentMain() {}
}
