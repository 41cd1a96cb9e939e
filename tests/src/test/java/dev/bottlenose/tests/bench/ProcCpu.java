package dev.bottlenose.tests.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time of a process and of each of its threads, read from {@code /proc/<pid>/stat} and
 * {@code /proc/<pid>/task/<tid>/stat} (utime + stime, in clock ticks).
 */
final class ProcCpu {
  /** Linux's USER_HZ; every current kernel reports 100. */
  static final double TICKS_PER_SECOND = 100;

  private ProcCpu() {
  }

  /** utime + stime of the whole process, in seconds. */
  static double processSeconds(long pid) {
    return ticks(Path.of("/proc", Long.toString(pid), "stat")) / TICKS_PER_SECOND;
  }

  /** Per thread id: the thread's name (as the kernel keeps it, 15 characters) and CPU seconds so far. */
  static Map<Long, ThreadCpu> threads(long pid) {
    Map<Long, ThreadCpu> out = new HashMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      tasks.forEach(t -> {
        try {
          String stat = Files.readString(t.resolve("stat"), StandardCharsets.UTF_8);
          String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
          out.put(Long.parseLong(t.getFileName().toString()), new ThreadCpu(name, ticksOf(stat) / TICKS_PER_SECOND));
        } catch (IOException | RuntimeException e) {
          // the thread ended between listing and reading
        }
      });
    } catch (IOException e) {
      throw new IllegalStateException("cannot list the threads of pid " + pid, e);
    }
    return out;
  }

  /** CPU seconds by thread group between two {@link #threads} snapshots; threads born in between count from 0. */
  static Map<String, Double> byGroup(Map<Long, ThreadCpu> before, Map<Long, ThreadCpu> after) {
    Map<String, Double> out = new HashMap<>();
    after.forEach((tid, t) -> {
      ThreadCpu b = before.get(tid);
      double spent = t.seconds() - (b == null || !b.name().equals(t.name()) ? 0 : b.seconds());
      out.merge(group(t.name()), spent, Double::sum);
    });
    return out;
  }

  /** The group a JVM thread belongs to, by its kernel name. */
  static String group(String name) {
    if (name.startsWith("bottlenose-") || name.startsWith("Attach Listener")) {
      return "agent";
    }
    if (name.startsWith("JFR ")) {
      return "jfr";
    }
    if (name.startsWith("C1 ") || name.startsWith("C2 ")) {
      return "jit";
    }
    if (name.startsWith("GC ") || name.startsWith("G1 ")) {
      return "gc";
    }
    if (name.startsWith("compute-") || name.startsWith("mixed-")) {
      return "app";
    }
    if (name.startsWith("VM Thread")) {
      return "vm";
    }
    return "other";
  }

  /** One thread's name and CPU seconds. */
  record ThreadCpu(String name, double seconds) {
  }

  private static long ticks(Path stat) {
    try {
      return ticksOf(Files.readString(stat, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + stat, e);
    }
  }

  private static long ticksOf(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }
}
