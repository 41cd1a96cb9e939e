package dev.bottlenose.agent;

import dev.bottlenose.agent.sources.ToolThreads;
import java.lang.instrument.Instrumentation;

/**
 * The agent's entry point, for {@code -javaagent} and for attaching at run time. It only hands off,
 * to a {@code bottlenose-start} thread so the host's start-up does not wait: the first load starts
 * the agent runtime, every load opens a session to the daemon named in the options, and nothing ever
 * escapes into the host.
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
      // a token file is read and deleted before the program goes on
      AgentOptions parsed = AgentOptions.parse(options).withTokenRead();
      ToolThreads.open(instrumentation);
      ToolThreads.newThread("bottlenose-start", () -> open(instrumentation, parsed, loadedBy)).start();
    } catch (Throwable t) {
      report(t);
    }
  }

  private static void open(Instrumentation instrumentation, AgentOptions options, String loadedBy) {
    try {
      AgentRuntime.get(instrumentation, options).openSession(options, loadedBy);
    } catch (Throwable t) {
      report(t);
    }
  }

  private static void report(Throwable t) {
    try {
      System.err.println("[bottlenose] agent not started: " + t);
    } catch (Throwable ignored) {
      // stderr itself failed: nothing left to tell
    }
  }

  private AgentMain() {}
}
