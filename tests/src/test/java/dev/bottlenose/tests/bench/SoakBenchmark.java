package dev.bottlenose.tests.bench;

import dev.bottlenose.daemon.session.ProbeInfo;
import dev.bottlenose.daemon.session.ProbeValue;
import dev.bottlenose.daemon.session.RemovedProbe;
import dev.bottlenose.daemon.session.Sample;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.SoakWorkload;
import java.io.PrintStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The attach → probe → remove soak: one busy {@link SoakWorkload} target, and many cycles of a daemon
 * session attaching to it (the Attach API and the agent channel, as {@code bottlenose daemon --pid} does),
 * a call-count probe inserted into the method its three threads run, one round of known size, the probe's
 * count read from the session's next sample and compared with the workload's own, the probe removed and the
 * class's bytes compared with the original's, the session closed. Counts crashes (target gone, a cycle that
 * failed), wrong counts, classes not restored, and the target's threads and metaspace over the cycles and
 * after the last. Not a test: run it with {@code tests/bench-soak.sh [cycles] [17|25]}.
 */
public final class SoakBenchmark {
  static final String CLASS = SoakWorkload.class.getName();
  static final String STEP = "/Code/" + SoakWorkload.class.getPackageName() + "/SoakWorkload/step(I)J";
  static final int ROUND = 20_000;

  private SoakBenchmark() {}

  public static void main(String[] args) throws Exception {
    int cycles = args.length > 0 ? Integer.parseInt(args[0]) : 500;
    Jdk jdk = args.length > 1 && args[1].equals("25") ? Jdk.JDK25 : Jdk.JDK17;
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    SessionOptions options = SessionOptions.defaults().withInterval(Duration.ofMillis(200)).withHeartbeatMillis(3000);
    Map<String, long[]> stats = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    long[] cycleMillis = new long[cycles];
    int wrong = 0;
    int notRestored = 0;
    int done = 0;
    boolean crashed = false;
    try (TargetJvm target = TargetJvm.start(jdk, SoakWorkload.class)) {
      Thread.sleep(3000);
      stats.put("before the first attach", stats(target));
      String original = null;
      for (int c = 1; c <= cycles; c++) {
        if (!target.isAlive()) {
          crashed = true;
          failures.add("cycle " + c + ": the target is gone");
          break;
        }
        long started = System.nanoTime();
        try (TargetSession session = TargetSession.attach(target.pid(), options, quiet)) {
          String before = sha(session);
          original = original == null ? before : original;
          if (!before.equals(original)) {
            failures.add("cycle " + c + ": the class's bytes before inserting differ from the first cycle's");
          }
          ProbeInfo probe = session.enable(STEP, "call_count", null, "soak");
          target.send("round " + ROUND);
          long own = TargetJvm.field(target.awaitLine("done", Duration.ofSeconds(60)), "calls");
          long counted = countAfter(session, probe.probeId(), System.currentTimeMillis());
          if (counted != own || own != (long) SoakWorkload.WORKERS * ROUND) {
            wrong++;
            failures.add("cycle " + c + ": the probe counted " + counted + ", the workload " + own);
          }
          RemovedProbe removed = session.disable(probe.probeId());
          if (!removed.classRestored() || !sha(session).equals(original)) {
            notRestored++;
            failures.add("cycle " + c + ": the class was not restored byte for byte");
          }
        } catch (Exception | AssertionError e) {
          failures.add("cycle " + c + ": " + e);
        }
        cycleMillis[c - 1] = (System.nanoTime() - started) / 1_000_000;
        done = c;
        if (c == 1 || c % 100 == 0 || c == cycles) {
          stats.put("after cycle " + c, stats(target));
          System.out.printf(Locale.ROOT, "cycle %d: %s, %d failure(s) so far%n", c, Arrays.toString(stats.get("after cycle " + c)),
              failures.size());
        }
      }
      Thread.sleep(20_000);
      if (target.isAlive()) {
        stats.put("20 s after the last cycle", stats(target));
      } else {
        crashed = true;
      }
    }
    report(done, crashed, wrong, notRestored, failures, Arrays.copyOf(cycleMillis, done), stats, jdk);
    System.exit(0);
  }

  /**
   * The probe's cumulative count in the first sample whose whole interval lies after {@code afterMillis} (a
   * sample stamped just after it may hold counters read a moment before).
   */
  private static long countAfter(TargetSession session, long probeId, long afterMillis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10_000;
    while (System.currentTimeMillis() < deadline) {
      List<Sample> last = session.values().history(1);
      if (!last.isEmpty() && last.get(0).atMillis() - last.get(0).intervalNanos() / 1_000_000 > afterMillis) {
        for (ProbeValue p : last.get(0).probes()) {
          if (p.probeId() == probeId) {
            return p.count();
          }
        }
        return -1;
      }
      Thread.sleep(50);
    }
    return -2;
  }

  private static String sha(TargetSession session) {
    return String.valueOf(session.classBytes(CLASS).get("sha256"));
  }

  /** {threads, Bottlenose's threads, metaspace bytes, heap bytes}. */
  private static long[] stats(TargetJvm target) throws Exception {
    target.send("stats");
    String line = target.awaitLine("stats", Duration.ofSeconds(30));
    return new long[] {TargetJvm.field(line, "threads"), TargetJvm.field(line, "tool"), TargetJvm.field(line, "metaspace"),
        TargetJvm.field(line, "heap")};
  }

  private static void report(int cycles, boolean crashed, int wrong, int notRestored, List<String> failures,
      long[] millis, Map<String, long[]> stats, Jdk jdk) {
    long[] sorted = millis.clone();
    Arrays.sort(sorted);
    System.out.printf(Locale.ROOT, "%n%d attach → probe → remove cycles on a %s target (%d threads calling the probed method)%n",
        cycles, jdk, SoakWorkload.WORKERS);
    System.out.println("| cycles | target crashed | failed cycles | wrong counts | classes not restored | cycle time median (p90, max) |");
    System.out.println("| ---: | --- | ---: | ---: | ---: | --- |");
    System.out.printf(Locale.ROOT, "| %d | %s | %d | %d | %d | %d ms (%d, %d) |%n", cycles, crashed ? "yes" : "no",
        failures.size() - wrong - notRestored, wrong, notRestored, sorted.length == 0 ? 0 : sorted[sorted.length / 2],
        sorted.length == 0 ? 0 : sorted[(int) (sorted.length * 0.9)], sorted.length == 0 ? 0 : sorted[sorted.length - 1]);
    System.out.println();
    System.out.println("| when | threads | of them bottlenose-* | metaspace used (MiB) | heap used (MiB) |");
    System.out.println("| --- | ---: | ---: | ---: | ---: |");
    stats.forEach((when, s) -> System.out.printf(Locale.ROOT, "| %s | %d | %d | %.2f | %.1f |%n", when, s[0], s[1],
        s[2] / 1048576.0, s[3] / 1048576.0));
    failures.stream().limit(20).forEach(f -> System.out.println("failure: " + f));
  }
}
