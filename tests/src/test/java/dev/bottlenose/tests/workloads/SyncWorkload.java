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
public final class SyncWorkload {
  static volatile boolean running = true;

  public static void main(String[] args) throws Exception {
    File file = File.createTempFile("sync-workload-", ".log");
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

  /** One record, written and synced. */
  static void append(FileOutputStream out, byte[] record) throws IOException {
    out.write(record);
    out.getFD().sync();
  }
}
