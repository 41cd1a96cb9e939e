package dev.bottlenose.daemon.attach;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the target's JIT had compiled when the daemon attached: each method with compiled code in use (jcmd
 * {@code Compiler.codelist}, run over the Attach API before the agent loads).
 *
 * <p>Why it matters: HotSpot records which compiled code depends on which class for redefinition only when an agent
 * that may redefine classes is there from the start. In a JVM attached to later, the first class anything changes
 * (JFR's start on JDK 17 changes some of the JDK's own; a probe does) makes it throw away all compiled code, and
 * the JIT compiles the program's warm methods again: 3,700 methods made not entrant in one second on a Jetty server
 * attached 4 s in, and seconds of JIT CPU after. That is the attach's wake, not the program's JIT time.
 *
 * <p>The first compilations after the attach of a method compiled before, at each level and for on-stack
 * replacement, as many as the code list had pieces of code of it, are counted as the wake, whatever level the method
 * had reached: thrown back to the interpreter, a method still profiling in C1 before the attach is compiled by C1
 * again and then by C2, at the JIT's pace while it compiles everything else again. On that Jetty server (JDK 17,
 * attached 6 s in) those C2 compilations took 5.2 s of the JIT's CPU in the 14 s after the attach, where the program
 * alone compiles 2.8 s in all after that moment and nothing from 7 s after it; counted as the program's, the JIT
 * looked like its bottleneck (0.57 s per second at the whole program) while alone it compiles nothing.
 *
 * <p>While the wake makes most of the JIT's recent work (each compilation's time fading by half in {@link
 * #HALF_LIFE_MILLIS}, the recompilations outweighing every other compilation and going on at more than a few
 * milliseconds a second), two more kinds of compilation are counted as the wake too. A method compiled before, once
 * more: every thread that was in a loop of compiled code goes on in the interpreter and needs an on-stack replacement
 * to come back, as many as there are such loops, where the code list has only the code in use at the moment it was
 * read. And the JDK's own methods: the agent, JFR and the program run the same JDK code (maps, streams, sockets),
 * and while the JIT compiles everything again they are compiled for all of them (on a program alone compiling
 * nothing, 0.3 s of such compilations in the 6 s after the attach). Beyond that, a method compiled again is the
 * program's own doing (a deoptimisation storm still shows once the wake has passed), and so is every method of the
 * program the JIT had not compiled before; a program that compiles code of its own all the time (generated proxies,
 * say) keeps all its compilations, the JDK's among them.
 */
public final class CompiledBeforeAttach {
  /** Nothing known compiled before (the agent was there from the start, or the code list could not be read). */
  public static final CompiledBeforeAttach NONE = new CompiledBeforeAttach(Map.of());
  /** How fast a compilation's time fades from the JIT's recent work, when weighing the wake against the rest. */
  public static final long HALF_LIFE_MILLIS = 1_000;
  /**
   * The least recent recompiling time (ns, fading) that makes a wake: a JIT recompiling about 7 ms a second; the
   * storm after JFR's start runs at hundreds.
   */
  private static final double WAKE_FLOOR_NANOS = 10e6;
  private static final int DECIDED = 4_096;
  /**
   * The first Java release whose JIT records from the start which compiled code a class change must throw away
   * (JDK-8324241), so that an attach costs it no more than that code: on JDK 25, attached to 6 s in, the Jetty server's
   * JIT logged {@code Marked dependent nmethods} only, where JDK 17's threw everything away. From it on, nothing
   * compiled before is the attach's wake and the code list is not read.
   */
  public static final int KEEPS_COMPILED_CODE_FROM = 23;
  /** JFR's name of a hidden class: the code list's, a {@code +} or {@code .} for its {@code /}, on 17 an id after. */
  private static final Pattern HIDDEN = Pattern.compile("^(.*?)[+.](0x[0-9a-fA-F]+)(?:\\.\\d+)?$");

  /** Each method that had compiled code in use → how many pieces of code. */
  private final Map<String, Integer> methods;
  /** The JIT's recent work, ns fading: the recompilations, and the compilations taken as the program's. */
  private double recentWake;
  private double recentOther;
  private long fadedTo = Long.MIN_VALUE;
  /** Compile id → the answer given, so the same compilation asked again answers the same. */
  private final Map<Long, Boolean> decided = new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
      return size() > DECIDED;
    }
  };
  /** "method level [osr]" → the compile ids that recompiled it, so the same event asked twice answers the same. */
  private final Map<String, Set<Long>> recompiled = new HashMap<>();
  /** The methods compiled before the attach that the JIT has compiled again since (not on-stack replacement only). */
  private final Set<String> compiledAgain = new HashSet<>();

  private CompiledBeforeAttach(Map<String, Integer> methods) {
    this.methods = methods;
  }

  /**
   * Reads {@code Compiler.codelist}'s output: one line per compiled method, {@code <compile id> <level> <state>
   * <class>.<method><descriptor> [addresses]}; state 0 is code in use. Other lines are skipped.
   */
  public static CompiledBeforeAttach parse(String codelist) {
    Map<String, Integer> methods = new HashMap<>();
    for (String line : codelist.split("\n")) {
      String[] f = line.strip().split(" ", 5);
      if (f.length < 4 || f[0].isEmpty() || !f[0].chars().allMatch(Character::isDigit) || !f[2].equals("0")) {
        continue;
      }
      if (!f[1].isEmpty() && f[1].chars().allMatch(Character::isDigit)) {
        methods.merge(f[3], 1, Integer::sum);
      }
    }
    return methods.isEmpty() ? NONE : new CompiledBeforeAttach(Map.copyOf(methods));
  }

  /**
   * A method as the code list names it: {@code <class>.<name><descriptor>}, the class's binary name. JFR names a
   * hidden class (a lambda's, a lambda form's) {@code Foo$$Lambda$12+0x00007f…c210.1234} (JDK 17) or {@code
   * Foo$$Lambda.0x00000000…c210} (JDK 25) where the code list has {@code Foo$$Lambda$12/0x00007f…c210}: either is
   * taken to the code list's form.
   */
  public static String method(String className, String name, String descriptor) {
    return HIDDEN.matcher(className).replaceFirst("$1/$2") + "." + name + descriptor;
  }

  /** How many methods had compiled code in use. */
  public int methods() {
    return methods.size();
  }

  /** How many pieces of compiled code in use {@code method} ({@link #method}) had: 0 when it had none. */
  public int pieces(String method) {
    return methods.getOrDefault(method, 0);
  }

  /**
   * Whether compilation {@code compileId} of {@code method} ({@link #method}) at {@code level} ({@code osr}: an
   * on-stack replacement) is the attach's wake: one of the first such compilations, per level and kind, of a method
   * that had compiled code before the attach, as many as it had pieces of code.
   */
  public synchronized boolean isRecompile(String method, int level, boolean osr, long compileId) {
    Integer pieces = methods.get(method);
    if (level < 0 || pieces == null) {
      return false;
    }
    Set<Long> ids = recompiled.computeIfAbsent(method + " " + level + (osr ? " osr" : ""), k -> new HashSet<>());
    return ids.contains(compileId) || ids.size() < pieces && ids.add(compileId);
  }

  /**
   * Whether a compilation ({@code durationNanos} long, from {@code startMillis}) is the attach's wake: a
   * recompilation ({@link #isRecompile}), or one of a JDK method ({@code platform}) or of a method compiled before
   * (once more than {@link #isRecompile} allows) while the recompilations outweigh the JIT's other recent work and go
   * on. Asked again of the same compilation, answers the same.
   */
  public synchronized boolean isWake(String method, boolean platform, int level, boolean osr, long compileId,
      long startMillis, long durationNanos) {
    if (methods.isEmpty()) {
      return false;
    }
    if (!osr && level > 0 && methods.containsKey(method)) {
      compiledAgain.add(method);
    }
    Boolean known = decided.get(compileId);
    if (known != null) {
      return known;
    }
    fadeTo(startMillis);
    boolean wake;
    if (isRecompile(method, level, osr, compileId)) {
      recentWake += durationNanos;
      wake = true;
    } else {
      wake = (platform || methods.containsKey(method)) && recentWake > Math.max(recentOther, WAKE_FLOOR_NANOS);
      if (!wake) {
        recentOther += durationNanos;
      }
    }
    decided.put(compileId, wake);
    return wake;
  }

  /**
   * Whether an execution sample of {@code method} ({@link #method}) running in the interpreter, at {@code millis}, is
   * the attach's wake: the method had compiled code before the attach and the JIT has not compiled it again since, so
   * it runs interpreted only because the first class change threw its code away; or it is a JDK method ({@code
   * platform}) while the recompilations make most of the JIT's recent work. Interpretation right after the attach
   * counted as the program's made {@code interpreted_time} the first finding on a warm Lucene indexer (0.36 s per
   * second).
   * A method compiled again and interpreted once more is the program's doing.
   */
  public synchronized boolean interpretedInWake(String method, boolean platform, long millis) {
    if (methods.isEmpty()) {
      return false;
    }
    if (methods.containsKey(method) && !compiledAgain.contains(method)) {
      return true;
    }
    fadeTo(millis);
    return platform && recentWake > Math.max(recentOther, WAKE_FLOOR_NANOS);
  }

  private void fadeTo(long millis) {
    if (fadedTo != Long.MIN_VALUE && millis > fadedTo) {
      double keep = Math.pow(0.5, (millis - fadedTo) / (double) HALF_LIFE_MILLIS);
      recentWake *= keep;
      recentOther *= keep;
    }
    fadedTo = Math.max(fadedTo, millis);
  }
}
