package dev.bottlenose.tests.bench;

import dev.bottlenose.consultant.rules.RuleBook;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What making the consultant's built-in rule base costs a search's process, from the executable model the build
 * made (as a search does) and by compiling the DRL files (as a search with {@code --rules DIR} does, here with an
 * empty directory): each repetition is a fresh JVM per way (as a search command is), the two interleaved, that makes
 * the rule base once and reports the process's CPU seconds and the wall seconds it took (the JIT's and GC's threads
 * included, as the machine pays them). Run with the options the launcher gives the tool's JVMs
 * ({@code -XX:TieredStopAtLevel=1}).
 *
 * <p>Usage: {@code tests/bench-rule-compile.sh [--reps 7]}.
 */
public final class RuleCompileBenchmark {
  private static final Pattern LINE = Pattern.compile("cpu_s=([0-9.]+) wall_s=([0-9.]+)");

  private RuleCompileBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("--child")) {
      child(args[1].equals("drl"));
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
    List<String> ways = List.of("model", "drl");
    java.util.Map<String, List<Double>> cpu = new java.util.LinkedHashMap<>();
    java.util.Map<String, List<Double>> wall = new java.util.LinkedHashMap<>();
    for (int rep = 1; rep <= reps; rep++) {
      for (String way : rep % 2 == 1 ? ways : List.of(ways.get(1), ways.get(0))) {
        Matcher m = ChildJvm.run("repetition " + rep + " (" + way + ")", List.of("-XX:TieredStopAtLevel=1"),
            RuleCompileBenchmark.class, LINE, "--child", way);
        cpu.computeIfAbsent(way, k -> new ArrayList<>()).add(Double.parseDouble(m.group(1)));
        wall.computeIfAbsent(way, k -> new ArrayList<>()).add(Double.parseDouble(m.group(2)));
        System.out.println("rep " + rep + " " + way + ": " + m.group());
      }
    }
    for (String way : ways) {
      Stats c = Stats.of(cpu.get(way));
      Stats w = Stats.of(wall.get(way));
      System.out.printf(Locale.ROOT, "the built-in rule base in a fresh JVM, %s, %d repetitions: CPU %.2f s"
          + " (%.2f–%.2f), wall %.2f s (%.2f–%.2f)%n", way.equals("model") ? "from the build's executable model"
          : "compiled from DRL", reps, c.median(), c.min(), c.max(), w.median(), w.min(), w.max());
    }
  }

  private static void child(boolean drl) throws java.io.IOException {
    java.nio.file.Path none = drl ? java.nio.file.Files.createTempDirectory("no-rules") : null;
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long wall0 = System.nanoTime();
    RuleBook.load(none).newSession();
    long wall = System.nanoTime() - wall0;
    long cpu = os.getProcessCpuTime() - cpu0;
    if (none != null) {
      java.nio.file.Files.delete(none);
    }
    System.out.printf(Locale.ROOT, "cpu_s=%.3f wall_s=%.3f%n", cpu / 1e9, wall / 1e9);
  }
}
