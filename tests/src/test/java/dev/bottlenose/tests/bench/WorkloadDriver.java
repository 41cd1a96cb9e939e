package dev.bottlenose.tests.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongUnaryOperator;

/**
 * The loop every benchmark workload runs in: {@code threads} workers repeat one unit of work (a fixed amount
 * of it) until the JVM ends, counting completed units. Standard input drives it: {@code count} answers
 * {@code count units=N}, {@code exit} (or end of input) ends the program. It prints {@code ready} once the
 * workers run.
 */
public final class WorkloadDriver {
  static volatile long sink;

  private WorkloadDriver() {
  }

  /** Runs {@code unit} (given a seed, answers a value that is kept alive) on {@code threads} workers. */
  public static void run(String name, int threads, LongUnaryOperator unit) throws Exception {
    LongAdder units = new LongAdder();
    for (int i = 0; i < threads; i++) {
      long seed = 0x9E3779B97F4A7C15L * (i + 1);
      Thread worker = new Thread(() -> work(unit, units, seed), name + "-" + i);
      worker.setDaemon(true);
      worker.start();
    }
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null && !line.trim().equals("exit"); line = in.readLine()) {
        if (line.trim().equals("count")) {
          System.out.println("count units=" + units.sum());
          System.out.flush();
        }
      }
    }
  }

  private static void work(LongUnaryOperator unit, LongAdder units, long seed) {
    long x = seed;
    while (true) {
      x = unit.applyAsLong(x);
      units.increment();
      if ((x & 0xFFFF) == 0) {
        sink = x;
      }
    }
  }
}
