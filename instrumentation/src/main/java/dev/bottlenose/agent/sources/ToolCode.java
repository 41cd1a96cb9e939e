package dev.bottlenose.agent.sources;

import java.util.List;

/**
 * Bottlenose's own classes in the target: the agent (with the ASM it relocates below it), the probes' runtime,
 * the instrumentation and the resource model. Their samples, compilations and deoptimisations are the tool's
 * cost, never the program's bottleneck (the consultant's {@code CodeOnly} keeps its refinements out of them).
 * Likewise the tool's threads in the target: the agent's and JFR's, whose events are not the program's.
 */
public final class ToolCode {
  /** The agent's own threads' names start with this. */
  public static final String AGENT_THREADS = "bottlenose-";
  /** JFR's own Java threads ("JFR Periodic Tasks", …): the recording's, not the program's. */
  public static final String JFR_THREADS = "JFR ";
  private static final List<String> PACKAGES = List.of("dev.bottlenose.agent.", "dev.bottlenose.probe.",
      "dev.bottlenose.instrumentation.", "dev.bottlenose.model.");

  private ToolCode() {
  }

  /** True for a binary class name ({@code dev.bottlenose.agent.Session}) in one of Bottlenose's packages. */
  public static boolean isToolClass(String className) {
    if (className == null) {
      return false;
    }
    for (String p : PACKAGES) {
      if (className.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  /** True for a Java thread name of the agent's ({@code bottlenose-*}). */
  public static boolean isAgentThread(String javaName) {
    return javaName != null && javaName.startsWith(AGENT_THREADS);
  }

  /** True for a Java thread name of the agent's ({@code bottlenose-*}) or of JFR's ({@code JFR *}). */
  public static boolean isToolThread(String javaName) {
    return javaName != null && (javaName.startsWith(AGENT_THREADS) || javaName.startsWith(JFR_THREADS));
  }
}
