package dev.bottlenose.daemon.attach;

import java.util.HashMap;
import java.util.Map;

/**
 * What the target's JIT had compiled when the daemon attached: each method with compiled code in use and the
 * highest level it had (jcmd {@code Compiler.codelist}, run over the Attach API before the agent loads).
 *
 * <p>Why it matters: HotSpot records which compiled code depends on which class for redefinition only when an agent
 * that may redefine classes is there from the start. In a JVM attached to later, the first class anything changes
 * (JFR's start on JDK 17 changes some of the JDK's own; a probe does) makes it throw away all compiled code, and
 * the JIT compiles the program's warm methods again: 3,700 methods made not entrant in one second on a Jetty server
 * attached 4 s in, and seconds of JIT CPU after. That is the attach's wake, not the program's JIT time. The first
 * compilation after the attach of a method, at a level it had reached before, is counted as the wake; a method
 * compiled again after that is the program's own doing (a deoptimisation storm still shows).
 */
public final class CompiledBeforeAttach {
  /** Nothing known compiled before (the agent was there from the start, or the code list could not be read). */
  public static final CompiledBeforeAttach NONE = new CompiledBeforeAttach(Map.of());

  private final Map<String, Integer> levels;
  /** "method level" → the compile id that recompiled it, so the same event asked twice answers the same. */
  private final Map<String, Long> recompiled = new HashMap<>();

  private CompiledBeforeAttach(Map<String, Integer> levels) {
    this.levels = levels;
  }

  /**
   * Reads {@code Compiler.codelist}'s output: one line per compiled method, {@code <compile id> <level> <state>
   * <class>.<method><descriptor> [addresses]}; state 0 is code in use. Other lines are skipped.
   */
  public static CompiledBeforeAttach parse(String codelist) {
    Map<String, Integer> levels = new HashMap<>();
    for (String line : codelist.split("\n")) {
      String[] f = line.strip().split(" ", 5);
      if (f.length < 4 || f[0].isEmpty() || !f[0].chars().allMatch(Character::isDigit) || !f[2].equals("0")) {
        continue;
      }
      try {
        levels.merge(f[3], Integer.parseInt(f[1]), Math::max);
      } catch (NumberFormatException e) {
        // not a code line
      }
    }
    return levels.isEmpty() ? NONE : new CompiledBeforeAttach(levels);
  }

  /** A method as the code list names it: {@code <class>.<name><descriptor>}, the class's binary name. */
  public static String method(String className, String name, String descriptor) {
    return className + "." + name + descriptor;
  }

  /** How many methods had compiled code in use. */
  public int methods() {
    return levels.size();
  }

  /**
   * Whether compilation {@code compileId} of {@code method} ({@link #method}) at {@code level} recompiles code the
   * method had before the attach: the first such compilation per method and level after the attach.
   */
  public synchronized boolean isRecompile(String method, int level, long compileId) {
    Integer before = levels.get(method);
    if (before == null || level < 0 || level > before) {
      return false;
    }
    Long first = recompiled.putIfAbsent(method + " " + level, compileId);
    return first == null || first == compileId;
  }
}
