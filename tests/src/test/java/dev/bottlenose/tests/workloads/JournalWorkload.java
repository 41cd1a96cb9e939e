package dev.bottlenose.tests.workloads;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A planted I/O bottleneck that JDK 17 records no I/O event for: a journal thread appends a 512-byte record to
 * a file and syncs it to the device after each one ({@link #append}: {@code FileDescriptor.sync}), as a naive
 * write-ahead log does, while a main thread waits on standard input (a reader blocked for the whole run, which
 * is not I/O work). Prints {@code ready} once started and runs until standard input says {@code exit} (or
 * closes).
 */
public final class JournalWorkload {
  static volatile boolean running = true;

  public static void main(String[] args) throws Exception {
    File file = File.createTempFile("journal-workload-", ".log");
    file.deleteOnExit();
    Thread journal = new Thread(() -> journal(file), "journal");
    journal.setDaemon(true);
    journal.start();
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null && !line.trim().equals("exit"); line = in.readLine()) {
        // only "exit" is a command
      }
    }
    running = false;
    journal.join();
    file.delete();
  }

  private static void journal(File file) {
    byte[] record = new byte[512];
    try (FileOutputStream out = new FileOutputStream(file)) {
      for (long n = 0; running; n++) {
        record[(int) (n & 511)]++;
        append(out, record);
        if ((n & 4095) == 4095) {
          out.getChannel().truncate(0);
        }
      }
    } catch (IOException e) {
      running = false;
    }
  }

  /**
   * For {@code KnownAnswerWorkload}'s {@code sync} scenario: {@link #syncSlowly} on a thread of its own, waited
   * for; the nanos it spent inside write and sync.
   */
  static long syncSlowlyOnItsOwnThread(long millis) throws InterruptedException {
    long[] inIo = {-1};
    Thread t = new Thread(() -> inIo[0] = syncSlowly(millis), "known-sync");
    t.start();
    t.join();
    return inIo[0];
  }

  /** Appends, syncs and computes about a millisecond in turn for {@code millis}; the nanos inside write and sync. */
  static long syncSlowly(long millis) {
    long inIo = 0;
    try {
      File file = File.createTempFile("known-sync-", ".log");
      try (FileOutputStream out = new FileOutputStream(file)) {
        byte[] record = new byte[512];
        long end = System.nanoTime() + millis * 1_000_000;
        long x = 17;
        while (System.nanoTime() < end) {
          long t0 = System.nanoTime();
          append(out, record);
          inIo += System.nanoTime() - t0;
          for (long stop = System.nanoTime() + 1_000_000; System.nanoTime() < stop;) {
            x = x * 6364136223846793005L + 1442695040888963407L;
          }
        }
        record[0] = (byte) x;
      } finally {
        file.delete();
      }
    } catch (IOException e) {
      return -1;
    }
    return inIo;
  }

  /** One record, written and synced. */
  static void append(FileOutputStream out, byte[] record) throws IOException {
    out.write(record);
    out.getFD().sync();
  }
}
