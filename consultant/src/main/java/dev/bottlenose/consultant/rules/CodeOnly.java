package dev.bottlenose.consultant.rules;

import dev.bottlenose.model.ResourcePath;
import java.util.List;

/**
 * A hypothesis whose metric can be measured only at a {@code /Code} focus (bytecode probes in the
 * focus's methods), never at the whole program (not API): it is asked where its parent is true in a
 * {@code /Code} package of the application, not at the whole program.
 */
public record CodeOnly(String hypothesisId) {
  private static final List<String> PLATFORM = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.");

  /**
   * False for the platform's packages: one of them is on every stack ({@code java.lang.Thread.run}), so it
   * tests CPU-bound true inclusively, and probing every method of {@code java.lang} costs more than it tells.
   */
  public static boolean inApplicationCode(ResourcePath code) {
    if (code == null || code.isRoot()) {
      return false;
    }
    String pkg = code.segments().get(0);
    return PLATFORM.stream().noneMatch(p -> pkg.startsWith(p) || pkg.equals(p.substring(0, p.length() - 1)));
  }
}
