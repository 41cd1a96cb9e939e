package dev.bottlenose.tests.bench;

import dev.bottlenose.consultant.rules.RuleBook;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What compiling the consultant's built-in rules costs a search's process: each repetition is a fresh JVM (as a
 * search command is) that compiles them once and reports the process's CPU seconds and the wall seconds the compile
 * took (the JIT's and GC's threads included, as the machine pays them). Run with the options the launcher gives
 * the tool's JVMs ({@code -XX:TieredStopAtLevel=1}).
 *
 * <p>Usage: {@code tests/bench-rule-compile.sh [--reps 7]}.
 */
public final class RuleCompileBenchmark {
  private static final Pattern LINE = Pattern.compile("cpu_s=([0-9.]+) wall_s=([0-9.]+)");

  private RuleCompileBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && args[0].equals("--child")) {
      child();
      return;
    }
    int reps = 7;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--reps") && i + 1 < args.length) {
        reps = Integer.parseInt(args[++i]);
      } else {
        throw new IllegalArgumentException("usage: RuleCompileBenchmark [--reps N]");
      }
    }
    List<Double> cpu = new ArrayList<>();
    List<Double> wall = new ArrayList<>();
    for (int rep = 1; rep <= reps; rep++) {
      Matcher m = ChildJvm.run("repetition " + rep, List.of("-XX:TieredStopAtLevel=1"), RuleCompileBenchmark.class,
          LINE, "--child");
      cpu.add(Double.parseDouble(m.group(1)));
      wall.add(Double.parseDouble(m.group(2)));
      System.out.println("rep " + rep + ": " + m.group());
    }
    Stats c = Stats.of(cpu);
    Stats w = Stats.of(wall);
    System.out.printf(Locale.ROOT, "compiling the built-in rules in a fresh JVM, %d repetitions: CPU %.2f s (%.2f–%.2f),"
        + " wall %.2f s (%.2f–%.2f)%n", reps, c.median(), c.min(), c.max(), w.median(), w.min(), w.max());
  }

  private static void child() {
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long wall0 = System.nanoTime();
    RuleBook.load(null).newSession();
    long wall = System.nanoTime() - wall0;
    long cpu = os.getProcessCpuTime() - cpu0;
    System.out.printf(Locale.ROOT, "cpu_s=%.3f wall_s=%.3f%n", cpu / 1e9, wall / 1e9);
  }
}
