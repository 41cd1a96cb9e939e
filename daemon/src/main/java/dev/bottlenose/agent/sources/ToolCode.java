package dev.bottlenose.agent.sources;

import java.util.List;

/**
 * Bottlenose's own classes in the target: the agent (with the ASM it relocates below it), the probes' runtime,
 * the instrumentation and the resource model. Their samples, compilations and deoptimisations are the tool's
 * cost, never the program's bottleneck (the consultant's {@code CodeOnly} keeps its refinements out of them).
 */
public final class ToolCode {
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
}
