package dev.bottlenose.tests.bench;

import dev.bottlenose.agent.sources.LockSamples;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import jdk.jfr.Recording;

/**
 * What one period of the agent's lock samples costs the program, the figure the cost model charges a lock-sample
 * source per period ({@code CostModel.LOCK_SAMPLE_NANOS}): the sampler's work (a look at every platform thread's
 * state and at what each parked one waits on) and the events it commits, one per thread waiting for a lock, into a
 * JFR recording that has the event on. A program of N threads: a tenth blocked entering a monitor this benchmark
 * holds, a tenth parked on a {@code ReentrantLock} it holds (both sampled: one event each a period), the rest idle
 * in {@code Condition.await} (looked at, not sampled), as in a server's pools. The sampler is called in a loop on
 * this thread (as JFR's periodic thread calls it), and its cost is this thread's CPU per call, after a warm-up
 * that lets the JIT compile it. Thread counts are interleaved over the repetitions; median and range per count.
 *
 * <p>Usage: {@code tests/bench-lock-sample-cost.sh [--reps 5] [--threads 40,200,1000] [--calls 2000]}.
 */
public final class LockSampleCostBenchmark {
  private LockSampleCostBenchmark() {}

  public static void main(String[] args) throws Exception {
    int reps = 5;
    int calls = 2000;
    List<Integer> counts = List.of(40, 200, 1000);
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--reps" -> reps = Integer.parseInt(args[i + 1]);
        case "--calls" -> calls = Integer.parseInt(args[i + 1]);
        case "--threads" -> counts = java.util.Arrays.stream(args[i + 1].split(",")).map(Integer::valueOf).toList();
        default -> throw new IllegalArgumentException(
            "usage: LockSampleCostBenchmark [--reps N] [--threads N,N,...] [--calls N]");
      }
    }
    Method sample = LockSamples.class.getDeclaredMethod("sample");
    sample.setAccessible(true);
    Map<Integer, List<Double>> perCall = new LinkedHashMap<>();
    counts.forEach(n -> perCall.put(n, new ArrayList<>()));
    try (Recording recording = new Recording()) {
      recording.enable(LockSamples.EVENT);
      recording.setToDisk(true);
      recording.start();
      for (int rep = 1; rep <= reps; rep++) {
        List<Integer> order = new ArrayList<>(counts);
        java.util.Collections.rotate(order, -(rep - 1));
        for (int n : order) {
          double micros = run(sample, n, calls);
          perCall.get(n).add(micros);
          System.out.printf(Locale.ROOT, "rep %d %5d threads: %.1f µs of CPU per period%n", rep, n, micros);
        }
      }
    }
    System.out.println();
    System.out.println("| threads | µs of CPU per period, median (range) | ns per thread |");
    System.out.println("| --- | --- | --- |");
    for (Map.Entry<Integer, List<Double>> e : perCall.entrySet()) {
      List<Double> v = new ArrayList<>(e.getValue());
      v.sort(null);
      double median = v.get(v.size() / 2);
      System.out.printf(Locale.ROOT, "| %d | %.1f (%.1f–%.1f) | %.0f |%n", e.getKey(), median, v.get(0),
          v.get(v.size() - 1), median * 1000 / e.getKey());
    }
  }

  /** This thread's CPU per call of the sampler, µs, with {@code n} more threads alive as described above. */
  private static double run(Method sample, int n, int calls) throws Exception {
    Object monitor = new Object();
    ReentrantLock lock = new ReentrantLock();
    ReentrantLock idleLock = new ReentrantLock();
    Condition idle = idleLock.newCondition();
    List<Thread> threads = new ArrayList<>();
    CountDownLatch started = new CountDownLatch(n);
    boolean[] stop = new boolean[1];
    lock.lock();
    try {
      synchronized (monitor) {
        for (int i = 0; i < n; i++) {
          Runnable body;
          if (i % 10 == 0) {
            body = () -> {
              started.countDown();
              synchronized (monitor) {
                // entered once the benchmark lets go
              }
            };
          } else if (i % 10 == 1) {
            body = () -> {
              started.countDown();
              lock.lock();
              lock.unlock();
            };
          } else {
            body = () -> {
              idleLock.lock();
              try {
                started.countDown();
                while (!stop[0]) {
                  idle.awaitUninterruptibly();
                }
              } finally {
                idleLock.unlock();
              }
            };
          }
          Thread t = new Thread(body, "bench-" + i);
          t.setDaemon(true);
          t.start();
          threads.add(t);
        }
        started.await();
        Thread.sleep(200); // the blocked and parked ones get there
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < Math.max(500, calls / 2); i++) {
          sample.invoke(null);
        }
        long cpu0 = mx.getCurrentThreadCpuTime();
        for (int i = 0; i < calls; i++) {
          sample.invoke(null);
        }
        return (mx.getCurrentThreadCpuTime() - cpu0) / 1e3 / calls;
      }
    } finally {
      lock.unlock();
      idleLock.lock();
      try {
        stop[0] = true;
        idle.signalAll();
      } finally {
        idleLock.unlock();
      }
      for (Thread t : threads) {
        t.join(10_000);
      }
    }
  }
}
