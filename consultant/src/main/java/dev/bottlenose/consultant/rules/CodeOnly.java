package dev.bottlenose.consultant.rules;

import dev.bottlenose.model.CodePaths;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.util.List;

/**
 * A hypothesis whose metric can be measured only at a {@code /Code} focus (bytecode probes in the
 * focus's methods), never at the whole program (not API): it is asked where its parent is true in a
 * {@code /Code} package of the application, not at the whole program.
 */
public record CodeOnly(String hypothesisId) {
  /** Bottlenose's own code in the target: the agent (with the ASM it relocates below it), probes, model. */
  private static final List<String> TOOL = List.of("dev.bottlenose.agent", "dev.bottlenose.instrumentation",
      "dev.bottlenose.probe", "dev.bottlenose.model");

  /**
   * False for the platform's packages: one of them is on every stack ({@code java.lang.Thread.run}), so it
   * tests CPU-bound true inclusively, and probing every method of {@code java.lang} costs more than it tells.
   * False for Bottlenose's own code too.
   */
  public static boolean inApplicationCode(ResourcePath code) {
    if (code == null || code.isRoot()) {
      return false;
    }
    return !isToolCode(code) && !CodePaths.inPlatform(code);
  }

  /**
   * True for a {@code /Code} path in Bottlenose's own in-target packages ({@code dev.bottlenose.agent}, its
   * relocated ASM {@code dev.bottlenose.agent.shaded.asm}, {@code dev.bottlenose.instrumentation}, {@code
   * dev.bottlenose.probe}, {@code dev.bottlenose.model}): the tool's work, never the program's bottleneck.
   */
  public static boolean isToolCode(ResourcePath path) {
    return path != null && TOOL.stream().anyMatch(p -> inPackage(path, p));
  }

  /**
   * Whether {@code wider} is {@code narrower} with its {@code /Code} part one level up (a rule's condition; the
   * rules' compiler reads {@code with} as a keyword, so they cannot call {@link Focus#with} themselves).
   */
  public static boolean widerInCode(Focus wider, Focus narrower) {
    ResourcePath code = narrower.get(Hierarchy.CODE);
    return code != null && !code.isRoot() && wider.equals(narrower.with(code.parent()));
  }

  private static boolean inPackage(ResourcePath path, String pkg) {
    if (path.hierarchy() != Hierarchy.CODE || path.isRoot()) {
      return false;
    }
    String name = path.segments().get(0);
    return name.equals(pkg) || name.startsWith(pkg + ".");
  }
}
