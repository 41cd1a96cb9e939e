package dev.bottlenose.web.demo;

import java.io.OutputStream;

/**
 * The program {@code bottlenose demo} searches, with one planted bottleneck: four worker threads spend
 * nearly all their time in {@link #isPrime} (CPU-bound, refined to that method), while a third thread
 * mostly sleeps. Prints {@code ready} when running; exits when its standard input closes. Uses only the
 * JDK, and runs from a class directory holding only this package.
 */
public final class PrimeCounter {
  private static volatile long found;

  private PrimeCounter() {}

  public static void main(String[] args) throws Exception {
    for (int i = 1; i <= 4; i++) {
      start("prime-worker-" + i, PrimeCounter::work);
    }
    start("reporter", PrimeCounter::report);
    System.out.println("ready pid " + ProcessHandle.current().pid());
    System.out.flush();
    System.in.transferTo(OutputStream.nullOutputStream());
    System.exit(0);
  }

  static boolean isPrime(long n) {
    if (n < 2) {
      return false;
    }
    for (long d = 2; d * d <= n; d++) {
      if (n % d == 0) {
        return false;
      }
    }
    return true;
  }

  private static void work() {
    long n = 1_000_000_000L;
    while (true) {
      if (isPrime(n)) {
        found++;
      }
      n = n > 2_000_000_000L ? 1_000_000_000L : n + 1;
    }
  }

  private static void report() {
    while (true) {
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        return;
      }
      if (found < 0) {
        System.out.println(found);
      }
    }
  }

  private static void start(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }
}
