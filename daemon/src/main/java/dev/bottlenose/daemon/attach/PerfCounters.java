package dev.bottlenose.daemon.attach;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * The HotSpot performance counters of a target JVM, read from the file the JVM keeps them in
 * ({@code /tmp/hsperfdata_<user>/<pid>}, what {@code jstat} reads; on by default, {@code -XX:-UsePerfData} turns
 * it off). The file is mapped read-only, so a read costs the target nothing. Format: HotSpot's
 * {@code perfMemory.hpp} (a prologue, then one entry per counter with its name and value); version 2, which every
 * JDK since 6 writes.
 *
 * <p>The JVM's own string constants are there too, among them its system properties as it started
 * ({@code java.property.java.version}): reading them here runs nothing in the target, where asking it for its
 * system properties runs Java code in it (the classes that loads can throw a warm program's compiled code away).
 *
 * <p>{@link #classLoadingNanos()} is the JVM's own total of the time threads spent loading classes
 * ({@code sun.cls.time}, what {@code jstat -class} shows as Time), defining from bytes included: JFR's
 * {@code jdk.ClassLoad} times only the loads the VM starts itself.
 */
public final class PerfCounters {
  static final int MAGIC = 0xcafec0c0;
  private static final int PROLOGUE_BYTE_ORDER = 4;
  private static final int PROLOGUE_MAJOR = 5;
  private static final int PROLOGUE_USED = 8;
  private static final int PROLOGUE_ENTRY_OFFSET = 24;
  private static final int PROLOGUE_NUM_ENTRIES = 28;
  private static final byte TYPE_LONG = 'J';
  private static final byte TYPE_BYTE = 'B';
  private static final byte UNITS_STRING = 5;

  private final ByteBuffer buffer;
  private final Map<String, Integer> longs = new HashMap<>();
  /** Per string counter, where its bytes start and how many there are at most. */
  private final Map<String, int[]> strings = new HashMap<>();
  private int indexedEntries;

  private PerfCounters(ByteBuffer buffer) {
    this.buffer = buffer;
  }

  /** The counters of the JVM with this pid on this machine, or null when its file cannot be found or read. */
  public static PerfCounters of(long pid) {
    Path file = find(pid);
    if (file == null) {
      return null;
    }
    try {
      return open(file);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The counters in {@code file}; fails when it is not a version-2 counter file. */
  static PerfCounters open(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
      if (map.order(ByteOrder.BIG_ENDIAN).getInt(0) != MAGIC) {
        throw new IOException(file + " is not a HotSpot performance-counter file");
      }
      ByteOrder order = map.get(PROLOGUE_BYTE_ORDER) == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
      if (map.get(PROLOGUE_MAJOR) != 2) {
        throw new IOException(file + " has counter format version " + map.get(PROLOGUE_MAJOR) + ", not 2");
      }
      PerfCounters c = new PerfCounters(map.order(order));
      c.index();
      return c;
    }
  }

  /**
   * The file of the JVM {@code pid}: under {@code /proc/<pid>/root} (so a target in a container of its own is
   * found, by its pid there) and then this machine's {@code /tmp}, in any user's {@code hsperfdata_} directory
   * this process may read.
   */
  private static Path find(long pid) {
    long inner = TargetPaths.namespacePid(pid);
    for (Path tmp : new Path[] {Path.of("/proc", Long.toString(pid), "root", "tmp"), Path.of("/tmp")}) {
      try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, "hsperfdata_*")) {
        for (Path dir : dirs) {
          for (long p : new long[] {inner, pid}) {
            Path f = dir.resolve(Long.toString(p));
            if (Files.isReadable(f)) {
              return f;
            }
          }
        }
      } catch (IOException | RuntimeException e) {
        // not there, or not ours to read
      }
    }
    return null;
  }

  /** Indexes the entries added since the last call (the JVM adds counters as it goes). */
  private synchronized void index() {
    int entries = buffer.getInt(PROLOGUE_NUM_ENTRIES);
    int used = buffer.getInt(PROLOGUE_USED);
    int at = buffer.getInt(PROLOGUE_ENTRY_OFFSET);
    for (int i = 0; i < entries && at > 0 && at < used; i++) {
      int length = buffer.getInt(at);
      if (length <= 0) {
        return;
      }
      if (i >= indexedEntries) {
        int vector = buffer.getInt(at + 8);
        if (vector == 0 && buffer.get(at + 12) == TYPE_LONG) {
          longs.put(name(at + buffer.getInt(at + 4)), at + buffer.getInt(at + 16));
        } else if (vector > 0 && buffer.get(at + 12) == TYPE_BYTE && buffer.get(at + 14) == UNITS_STRING) {
          strings.put(name(at + buffer.getInt(at + 4)), new int[] {at + buffer.getInt(at + 16), vector});
        }
      }
      at += length;
    }
    indexedEntries = Math.max(indexedEntries, entries);
  }

  private String name(int at) {
    return text(at, buffer.limit());
  }

  /** The NUL-terminated text at {@code at}, ending before {@code limit} at the latest. */
  private String text(int at, int limit) {
    int end = at;
    while (end < Math.min(limit, buffer.limit()) && buffer.get(end) != 0) {
      end++;
    }
    byte[] b = new byte[end - at];
    buffer.get(at, b);
    return new String(b, StandardCharsets.US_ASCII);
  }

  /** The string counter {@code name}'s value, or null when the JVM has no such counter. */
  public synchronized String text(String name) {
    int[] at = strings.get(name);
    if (at == null) {
      index();
      at = strings.get(name);
    }
    return at == null ? null : text(at[0], at[0] + at[1]);
  }

  /**
   * The Java version of the JVM {@code pid} as its counters tell ({@code java.property.java.version}), or null when
   * it keeps none this process may read ({@code -XX:-UsePerfData}, another user's).
   */
  static JavaVersion javaVersion(long pid) {
    PerfCounters counters = of(pid);
    String version = counters == null ? null : counters.text("java.property.java.version");
    return version == null || version.isBlank() ? null : JavaVersion.parse(version);
  }

  /** The counter {@code name}'s value now, or -1 when the JVM has no such counter. */
  public synchronized long value(String name) {
    Integer at = longs.get(name);
    if (at == null) {
      index();
      at = longs.get(name);
    }
    return at == null ? -1 : buffer.getLong(at);
  }

  /** Nanoseconds the JVM's threads have spent loading classes since it started, or -1 when it does not say. */
  public long classLoadingNanos() {
    return nanos(value("sun.cls.time"));
  }

  /** {@code ticks} of the JVM's high-resolution clock in nanoseconds; -1 when unknown. */
  long nanos(long ticks) {
    long frequency = value("sun.os.hrt.frequency");
    return ticks < 0 || frequency <= 0 ? -1 : Math.round(ticks * (1e9 / frequency));
  }
}
