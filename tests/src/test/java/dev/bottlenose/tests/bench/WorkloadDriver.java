package dev.bottlenose.tests.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongUnaryOperator;

/**
 * The loop every benchmark workload runs in: {@code threads} workers repeat one unit of work (a fixed amount
 * of it) until the JVM ends. Each worker writes how many units it has completed into its own slot of a file
 * mapped into memory (system property {@value #UNITS_PROPERTY}), which the harness reads from outside without
 * asking: a question over a pipe would make a thread of the program wait on I/O, and the search would rightly
 * find that wait. It prints {@code ready} once the workers run; {@code exit} on standard input (or its end)
 * ends the program.
 */
public final class WorkloadDriver {
  /** The system property naming the units file; without it the counts are kept in memory only. */
  static final String UNITS_PROPERTY = "bench.units";
  /** Slots in the units file, one per worker: eight bytes each. */
  static final int SLOTS = 64;
  static volatile long sink;

  private WorkloadDriver() {
  }

  /** Runs {@code unit} (given a seed, answers a value that is kept alive) on {@code threads} workers. */
  public static void run(String name, int threads, LongUnaryOperator unit) throws Exception {
    if (threads > SLOTS) {
      throw new IllegalArgumentException("at most " + SLOTS + " workers, not " + threads);
    }
    String file = System.getProperty(UNITS_PROPERTY);
    ByteBuffer units = file == null ? ByteBuffer.allocateDirect(SLOTS * Long.BYTES) : mapUnits(Path.of(file));
    for (int i = 0; i < threads; i++) {
      long seed = 0x9E3779B97F4A7C15L * (i + 1);
      int slot = i * Long.BYTES;
      Thread worker = new Thread(() -> work(unit, units, slot, seed), name + "-" + i);
      worker.setDaemon(true);
      worker.start();
    }
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null && !line.trim().equals("exit"); line = in.readLine()) {
        // Nothing else is asked on standard input.
      }
    }
  }

  /** Maps the units file, created at its full size if need be. */
  static ByteBuffer mapUnits(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      return channel.map(FileChannel.MapMode.READ_WRITE, 0, (long) SLOTS * Long.BYTES);
    }
  }

  private static void work(LongUnaryOperator unit, ByteBuffer units, int slot, long seed) {
    long x = seed;
    long done = 0;
    while (true) {
      x = unit.applyAsLong(x);
      units.putLong(slot, ++done);
      if ((x & 0xFFFF) == 0) {
        sink = x;
      }
    }
  }
}
