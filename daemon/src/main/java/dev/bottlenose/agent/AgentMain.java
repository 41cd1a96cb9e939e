package dev.bottlenose.agent;

import java.lang.instrument.Instrumentation;

/** SKELETON agent entry: hands off to the agent runtime (to be written). */
public final class AgentMain {
  public static void premain(String options, Instrumentation instrumentation) {
    agentmain(options, instrumentation);
  }

  public static void agentmain(String options, Instrumentation instrumentation) {
    try {
      System.err.println("[bottlenose] agent skeleton loaded " + options + " " + instrumentation);
    } catch (Throwable t) {
      // never throw into the host
    }
  }

  private AgentMain() {}
}
