package dev.bottlenose.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A small program to point Bottlenose at: worker threads that count primes (the hot method
 * {@link #isPrime}), meet in a synchronized section, allocate, and a writer thread that appends to a
 * file. Prints {@code ready} when running; exits when its standard input closes.
 */
public final class DemoWorkload {
  private static final Object LEDGER_LOCK = new Object();
  private static final List<int[]> RECENT = new ArrayList<>();
  private static long total;

  private DemoWorkload() {}

  public static void main(String[] args) throws Exception {
    int workers = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    Path log = Files.createTempFile("bottlenose-demo-", ".log");
    log.toFile().deleteOnExit();
    for (int i = 1; i <= workers; i++) {
      start("demo-worker-" + i, DemoWorkload::work);
    }
    start("demo-writer", () -> write(log));
    System.out.println("ready pid " + ProcessHandle.current().pid() + " writing " + log);
    System.out.flush();
    System.in.transferTo(OutputStream.nullOutputStream());
    System.exit(0);
  }

  static boolean isPrime(int n) {
    if (n < 2) {
      return false;
    }
    for (int d = 2; d * d <= n; d++) {
      if (n % d == 0) {
        return false;
      }
    }
    return true;
  }

  static int countPrimes(int from, int to) {
    int count = 0;
    for (int n = from; n < to; n++) {
      if (isPrime(n)) {
        count++;
      }
    }
    return count;
  }

  static void record(int primes) {
    synchronized (LEDGER_LOCK) {
      total += primes;
      RECENT.add(new int[primes]);
      if (RECENT.size() > 64) {
        RECENT.remove(0);
      }
    }
  }

  private static void work() {
    int from = 10_000;
    while (true) {
      record(countPrimes(from, from + 2_000));
      from = from > 1_000_000 ? 10_000 : from + 2_000;
      pause(5);
    }
  }

  private static void write(Path log) {
    try (Writer w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      while (true) {
        synchronized (LEDGER_LOCK) {
          w.write("total primes " + total + System.lineSeparator());
        }
        w.flush();
        pause(100);
      }
    } catch (IOException e) {
      System.err.println("demo writer stopped: " + e.getMessage());
    }
  }

  private static void start(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
