package dev.bottlenose.tests.bench;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.FootprintWorkload;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the agent adds to a target: heap (used, after full GCs), metaspace (used) and resident set of a
 * {@link FootprintWorkload} JVM, measured before attach, with the agent attached and idle, with 1,000
 * call-count probes active (one per method, every method being called), and after removing them. Each
 * repetition is a fresh target. Not a test: run it with {@code tests/bench-footprint.sh [repetitions]}.
 */
public final class FootprintBenchmark {
  private static final String[] PHASES = {"attached, idle", "1000 probes active", "probes removed"};
  private static final Duration SETTLE = Duration.ofSeconds(5);

  private FootprintBenchmark() {}

  public static void main(String[] args) throws Exception {
    int repetitions = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    List<long[][]> runs = new ArrayList<>();
    try (Bus bus = Bus.join()) {
      for (int r = 0; r < repetitions; r++) {
        runs.add(measureOnce(bus, r + 1));
      }
    }
    report(runs);
    System.exit(0);
  }

  /** [phase][heap, metaspace, rss] deltas against the unattached target. */
  private static long[][] measureOnce(Bus bus, int repetition) throws Exception {
    try (TargetJvm target = TargetJvm.start(Jdk.JDK17, FootprintWorkload.class)) {
      Thread.sleep(SETTLE.toMillis());
      long[] before = memory(target);
      Map<String, Long> histogramBefore = histogram(target.pid());
      long[][] deltas = new long[PHASES.length][];
      try (DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "1s")) {
        bus.awaitRunning(daemon);
        Thread.sleep(SETTLE.toMillis());
        deltas[0] = minus(memory(target), before);
        long started = System.nanoTime();
        List<Long> probes = enableAll(bus, daemon.id());
        long enableMillis = (System.nanoTime() - started) / 1_000_000;
        Thread.sleep(SETTLE.toMillis());
        deltas[1] = minus(memory(target), before);
        if (repetition == 1) {
          printGrowth(histogramBefore, histogram(target.pid()));
        }
        JsonObject ledger = bus.request(Addresses.ledger(daemon.id()), new JsonObject());
        int active = ledger.getJsonArray("entries").size();
        for (long id : probes) {
          bus.request(Addresses.disable(daemon.id()), new JsonObject().put("probeId", id));
        }
        Thread.sleep(SETTLE.toMillis());
        deltas[2] = minus(memory(target), before);
        System.out.printf(Locale.ROOT, "repetition %d: %d probes enabled in %d ms, %d ledger entries; deltas %s%n",
            repetition, probes.size(), enableMillis, active, Arrays.deepToString(deltas));
      }
      return deltas;
    }
  }

  private static List<Long> enableAll(Bus bus, String daemonId) throws Exception {
    List<Long> ids = new ArrayList<>();
    String pkg = "/Code/" + FootprintWorkload.class.getPackageName();
    for (int c = 0; c < FootprintWorkload.CLASSES; c++) {
      for (int i = 0; i < FootprintWorkload.METHODS; i++) {
        String focus = pkg + "/FootprintGen" + c + "/m" + i + "(I)I";
        JsonObject reply = bus.request(Addresses.enable(daemonId),
            new JsonObject().put("focus", focus).put("kind", "call_count").put("requester", "footprint-bench"));
        ids.add(reply.getLong("probeId"));
      }
    }
    return ids;
  }

  private static long[] memory(TargetJvm target) throws Exception {
    target.send("mem");
    String line = target.awaitLine("mem", Duration.ofSeconds(30));
    return new long[] {TargetJvm.field(line, "heap"), TargetJvm.field(line, "metaspace"), TargetJvm.field(line, "rss")};
  }

  /** Bytes per class of the live objects in the target, from {@code jcmd GC.class_histogram}. */
  private static Map<String, Long> histogram(long pid) throws Exception {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.class_histogram").start();
    Map<String, Long> bytes = new HashMap<>();
    for (String line : new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
      String[] w = line.trim().split("\\s+");
      if (w.length >= 4 && w[0].endsWith(":")) {
        bytes.merge(w[3], Long.parseLong(w[2]), Long::sum);
      }
    }
    p.waitFor();
    return bytes;
  }

  private static void printGrowth(Map<String, Long> before, Map<String, Long> after) {
    System.out.println("live heap growth by class, unattached -> 1000 probes active (top 15):");
    after.entrySet().stream()
        .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(15)
        .forEach(e -> System.out.printf(Locale.ROOT, "  %10d  %s%n", e.getValue(), e.getKey()));
  }

  private static long[] minus(long[] a, long[] b) {
    return new long[] {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  }

  private static void report(List<long[][]> runs) {
    System.out.printf(Locale.ROOT, "%n| phase | heap added (MiB) | metaspace added (MiB) | RSS added (MiB) |%n");
    System.out.println("| --- | ---: | ---: | ---: |");
    for (int p = 0; p < PHASES.length; p++) {
      StringBuilder row = new StringBuilder("| " + PHASES[p] + " |");
      for (int k = 0; k < 3; k++) {
        long[] values = new long[runs.size()];
        for (int r = 0; r < runs.size(); r++) {
          values[r] = runs.get(r)[p][k];
        }
        Arrays.sort(values);
        row.append(String.format(Locale.ROOT, " %.2f (%.2f..%.2f) |", mib(values[values.length / 2]),
            mib(values[0]), mib(values[values.length - 1])));
      }
      System.out.println(row);
    }
    System.out.println("median (min..max) over " + runs.size() + " fresh targets");
  }

  private static double mib(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }
}
