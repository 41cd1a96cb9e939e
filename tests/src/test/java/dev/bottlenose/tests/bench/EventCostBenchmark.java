package dev.bottlenose.tests.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.Recording;

/**
 * What one JFR event costs the program that commits it, the figure the cost model charges per event a search's
 * watched source records ({@code CostModel.EVENT_NANOS}): four threads park 0.3 ms at a time, 60 frames deep (a
 * server's stacks), with JFR's {@code jdk.ThreadPark} off, on without a stack, and on with its stack trace
 * (threshold 0, each park an event). Each run is a fresh JVM; the modes are interleaved over the repetitions. The
 * cost of an event is the process's CPU per park over that with the event off (JFR's recorder thread included),
 * median and range over the repetitions.
 *
 * <p>Usage: {@code tests/bench-event-cost.sh [--reps 5] [--parks 15000]}.
 */
public final class EventCostBenchmark {
  private static final Pattern LINE = Pattern.compile("process_ns_per_park=([0-9.]+)");
  private static final List<String> MODES = List.of("off", "event", "event+stack");
  private static final int THREADS = 4;
  private static final int DEPTH = 60;

  private EventCostBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 3 && args[0].equals("--child")) {
      child(args[1], Long.parseLong(args[2]));
      return;
    }
    int reps = 5;
    long parks = 15_000;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--reps" -> reps = Integer.parseInt(args[i + 1]);
        case "--parks" -> parks = Long.parseLong(args[i + 1]);
        default -> throw new IllegalArgumentException("usage: EventCostBenchmark [--reps N] [--parks N]");
      }
    }
    Map<String, List<Double>> perPark = new LinkedHashMap<>();
    MODES.forEach(m -> perPark.put(m, new ArrayList<>()));
    for (int rep = 1; rep <= reps; rep++) {
      List<String> order = new ArrayList<>(MODES);
      java.util.Collections.rotate(order, -(rep - 1));
      for (String mode : order) {
        double ns = run(mode, parks);
        perPark.get(mode).add(ns);
        System.out.printf(Locale.ROOT, "rep %d %-12s %.0f ns of CPU per park%n", rep, mode, ns);
      }
    }
    List<Double> off = perPark.get("off");
    for (String mode : MODES.subList(1, MODES.size())) {
      List<Double> extra = new ArrayList<>();
      for (int i = 0; i < reps; i++) {
        extra.add(perPark.get(mode).get(i) - off.get(i));
      }
      Stats s = Stats.of(extra);
      System.out.printf(Locale.ROOT, "%s: %.2f µs per event (%.2f–%.2f), %d repetitions, %d threads %d frames deep%n",
          mode, s.median() / 1000, s.min() / 1000, s.max() / 1000, reps, THREADS, DEPTH);
    }
  }

  private static double run(String mode, long parks) throws Exception {
    Matcher m = ChildJvm.run(mode, List.of(), EventCostBenchmark.class, LINE, "--child", mode, Long.toString(parks));
    return Double.parseDouble(m.group(1));
  }

  private static void child(String mode, long parks) throws Exception {
    park(DEPTH, 500);  // warm up: the loop compiled before the measured part
    Recording recording = null;
    if (!mode.equals("off")) {
      recording = new Recording();
      recording.enable("jdk.ThreadPark").withThreshold(Duration.ZERO)
          .with("stackTrace", Boolean.toString(mode.equals("event+stack")));
      recording.start();
    }
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu = os.getProcessCpuTime();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Thread thread = new Thread(() -> park(DEPTH, parks), "parker-" + t);
      thread.start();
      threads.add(thread);
    }
    for (Thread t : threads) {
      t.join();
    }
    if (recording != null) {
      recording.close();
    }
    cpu = os.getProcessCpuTime() - cpu;
    System.out.printf(Locale.ROOT, "process_ns_per_park=%.1f%n", (double) cpu / (THREADS * parks));
  }

  /** Parks {@code parks} times, {@code depth} frames below the caller. */
  private static long park(int depth, long parks) {
    if (depth > 0) {
      return park(depth - 1, parks) + 1;
    }
    for (long i = 0; i < parks; i++) {
      LockSupport.parkNanos(300_000);
    }
    return parks;
  }
}
