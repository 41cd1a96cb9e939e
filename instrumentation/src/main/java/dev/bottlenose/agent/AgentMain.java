package dev.bottlenose.agent;

import dev.bottlenose.agent.sources.ToolThreads;
import java.io.IOException;
import java.lang.instrument.Instrumentation;

/**
 * The agent's entry point, for {@code -javaagent} and for attaching at run time. With options it only hands
 * off, to a {@code bottlenose-start} thread so the host's start-up does not wait: the first load starts the
 * agent runtime, every load opens a session to the daemon named in the options, and nothing ever escapes into
 * the host. Without options (or with {@code standalone}) it waits for a daemon to hand it those options
 * ({@link WaitingAgent}), starting nothing else until one does.
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
      if (AgentOptions.isStandalone(options)) {
        WaitingAgent.start(instrumentation);
      } else {
        load(options, instrumentation, loadedBy);
      }
    } catch (Throwable t) {
      report(t);
    }
  }

  /**
   * One load with {@code options}: parsed (a token file read and deleted before the program goes on), then the
   * runtime started if it is the first and a session opened, on a {@code bottlenose-start} thread. Throws what
   * is wrong with the options; later failures of a waiting agent's load go to {@link AgentLog} only.
   */
  static void load(String options, Instrumentation instrumentation, String loadedBy) throws IOException {
    AgentOptions parsed = AgentOptions.parse(options).withTokenRead();
    ToolThreads.open(instrumentation);
    ToolThreads.newThread("bottlenose-start", () -> open(instrumentation, parsed, loadedBy)).start();
  }

  private static void open(Instrumentation instrumentation, AgentOptions options, String loadedBy) {
    try {
      AgentRuntime.get(instrumentation, options).openSession(options, loadedBy);
    } catch (Throwable t) {
      if (WaitingAgent.LOADED_BY.equals(loadedBy)) {
        AgentLog.line("session not opened: " + t);
      } else {
        report(t);
      }
    }
  }

  /** The one line the agent prints unasked: {@code [bottlenose] agent not started: …}. Never throws. */
  static void report(Throwable t) {
    try {
      System.err.println("[bottlenose] agent not started: " + t);
    } catch (Throwable ignored) {
      // stderr itself failed: nothing left to tell
    }
  }

  private AgentMain() {}
}
