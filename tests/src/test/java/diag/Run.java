package diag;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * How the diagnosis programs run: print {@code ready pid=N}, start the workers, stop them after
 * {@code -Ddiag.seconds} (default 90) or when standard input says {@code exit}, then exit. The programs
 * know nothing of Bottlenose; each one plants one cause (or two, or none) that its known answer names.
 *
 * <p>With {@code -Ddiag.rounds=N} each worker does a fixed amount of work instead: N passes of its loop (each
 * call of {@link #running()} is one), and the program exits when every worker is done, printing {@code done
 * cpu_s=… elapsed_s=…} (its CPU time and the time since the JVM started): what a slowdown is measured on.
 */
public final class Run {
  private static volatile boolean running = true;
  private static final long ROUNDS = Long.getLong("diag.rounds", 0);
  private static final ThreadLocal<long[]> ROUNDS_DONE = ThreadLocal.withInitial(() -> new long[1]);
  /** With {@code -Ddiag.progress=true}: passes done by all workers, printed once a second (throughput over time). */
  private static final java.util.concurrent.atomic.LongAdder PASSES =
      Boolean.getBoolean("diag.progress") ? new java.util.concurrent.atomic.LongAdder() : null;

  private Run() {}

  /** Whether the program should go on. */
  public static boolean running() {
    if (PASSES != null) {
      PASSES.increment();
    }
    if (ROUNDS > 0 && ++ROUNDS_DONE.get()[0] > ROUNDS) {
      return false;
    }
    return running;
  }

  /** Runs {@code workers} (each on a thread of the given name) until the time is up; then exits. */
  public static void workers(List<Worker> workers) throws InterruptedException {
    long seconds = Long.getLong("diag.seconds", 90);
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    Thread input = new Thread(Run::awaitExit, "input");
    input.setDaemon(true);
    input.start();
    if (PASSES != null) {
      Thread progress = new Thread(Run::printProgress, "progress");
      progress.setDaemon(true);
      progress.start();
    }
    List<Thread> threads = new ArrayList<>();
    for (Worker w : workers) {
      Thread t = new Thread(() -> {
        try {
          w.body().run();
        } catch (Exception e) {
          if (running) {
            e.printStackTrace();
          }
        }
      }, w.name());
      threads.add(t);
      t.start();
    }
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    if (ROUNDS > 0) {
      for (Thread t : threads) {
        t.join(Math.max(1, (end - System.nanoTime()) / 1_000_000));
      }
      long cpu = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
          .getProcessCpuTime();
      System.out.printf(java.util.Locale.ROOT, "done cpu_s=%.3f elapsed_s=%.3f%n", cpu / 1e9,
          java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() / 1e3);
      System.out.flush();
    }
    while (running && System.nanoTime() < end && (ROUNDS == 0 || threads.stream().anyMatch(Thread::isAlive))) {
      Thread.sleep(100);
    }
    running = false;
    for (Thread t : threads) {
      t.join(5_000);
    }
    System.exit(0);
  }

  private static void printProgress() {
    long start = System.nanoTime();
    try {
      while (true) {
        Thread.sleep(1000);
        System.out.printf(java.util.Locale.ROOT, "progress t=%.1f passes=%d%n", (System.nanoTime() - start) / 1e9,
            PASSES.sum());
        System.out.flush();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A worker thread's name and body; the body loops while {@link #running()}. */
  public record Worker(String name, Body body) {}

  /** A worker's body; it may throw, which ends that worker. */
  @FunctionalInterface
  public interface Body {
    void run() throws Exception;
  }

  private static void awaitExit() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.trim().equals("exit")) {
          running = false;
          return;
        }
      }
    } catch (IOException e) {
      // no standard input: run for the time given
    }
  }
}
