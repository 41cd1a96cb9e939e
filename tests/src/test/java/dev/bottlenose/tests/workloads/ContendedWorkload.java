package dev.bottlenose.tests.workloads;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A target whose threads mostly wait for one monitor: three threads take turns in {@link #contend}, each
 * holding the lock for about 2 ms of spinning, so two of them are blocked most of the time. Runs until
 * standard input says {@code exit} (or closes). It prints {@code ready} once started.
 */
public final class ContendedWorkload {
  static final Object LOCK = new Object();
  static volatile boolean running = true;
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    Thread[] threads = new Thread[3];
    for (int i = 0; i < threads.length; i++) {
      threads[i] = new Thread(ContendedWorkload::work, "contender-" + i);
      threads[i].setDaemon(true);
      threads[i].start();
    }
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null && !line.trim().equals("exit"); line = in.readLine()) {
        // only "exit" is a command
      }
    }
    running = false;
  }

  private static void work() {
    long x = 1;
    while (running) {
      x = contend(x);
    }
    sink = x;
  }

  /** Takes the shared monitor and spins about 2 ms inside it. */
  static long contend(long x) {
    synchronized (LOCK) {
      long end = System.nanoTime() + 2_000_000;
      while (System.nanoTime() < end) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
    }
    return x;
  }
}
