package dev.bottlenose.tests.workloads;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A busy three-thread target that knows its own answer, for the attach → probe → remove soak. Each worker
 * runs {@link #idle} between rounds (about a third of a core each); {@code round N} makes each of the three call {@link #step} exactly N
 * times and prints {@code done calls=<3N counted by the workload>}; {@code stats} prints its threads (all, and
 * Bottlenose's {@code bottlenose-*}), metaspace and heap in use after a full GC; {@code exit} ends it. It prints {@code ready}.
 */
public final class SoakWorkload {
  public static final int WORKERS = 3;
  static final AtomicLong CALLS = new AtomicLong();
  static final Semaphore[] GO = new Semaphore[WORKERS];
  static volatile int roundSize;
  static volatile CountDownLatch finished = new CountDownLatch(0);
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    for (int w = 0; w < WORKERS; w++) {
      GO[w] = new Semaphore(0);
      int me = w;
      Thread t = new Thread(() -> work(me), "soak-worker-" + w);
      t.setDaemon(true);
      t.start();
    }
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] words = line.trim().split("\\s+");
      switch (words[0]) {
        case "round" -> round(Integer.parseInt(words[1]));
        case "stats" -> stats();
        case "exit" -> {
          return;
        }
        default -> System.out.println("unknown " + line);
      }
      System.out.flush();
    }
  }

  private static void round(int n) throws InterruptedException {
    CALLS.set(0);
    roundSize = n;
    finished = new CountDownLatch(WORKERS);
    for (Semaphore go : GO) {
      go.release();
    }
    finished.await();
    System.out.println("done calls=" + CALLS.get());
  }

  private static void work(int me) {
    while (true) {
      if (GO[me].tryAcquire()) {
        long local = 0;
        for (int i = 0; i < roundSize; i++) {
          local += step(i);
        }
        sink += local;
        finished.countDown();
      } else {
        sink += idle();
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  /** What the probe counts: a little arithmetic, and the workload's own count of its calls. */
  static long step(int seed) {
    CALLS.incrementAndGet();
    long x = seed;
    for (int i = 0; i < 50; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
    }
    return x;
  }

  /** Busy between rounds (with a millisecond's nap after each call), so the target is a running program. */
  static long idle() {
    long x = System.nanoTime();
    for (int i = 0; i < 2000; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
    }
    return x;
  }

  private static void stats() {
    System.gc();
    int all = 0;
    int tool = 0;
    for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
      all++;
      tool += t.getThreadName().startsWith("bottlenose") ? 1 : 0;
    }
    long metaspace = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getName().equals("Metaspace")) {
        metaspace = pool.getUsage().getUsed();
      }
    }
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    System.out.println("stats threads=" + all + " tool=" + tool + " metaspace=" + metaspace + " heap=" + heap);
  }
}
