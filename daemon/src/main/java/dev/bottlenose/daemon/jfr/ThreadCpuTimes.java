package dev.bottlenose.daemon.jfr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.LongUnaryOperator;
import java.util.stream.Stream;

/**
 * The CPU time of one thread of the target, by its OS thread id, read from Linux's {@code /proc}: the
 * scheduler's nanosecond run time ({@code schedstat}), else user + system ticks ({@code stat}, 10 ms each);
 * -1 where neither can be read (another OS, a thread gone).
 */
final class ThreadCpuTimes implements LongUnaryOperator {
  private static final long NANOS_PER_TICK = 10_000_000;

  private final Path task;

  ThreadCpuTimes(long pid) {
    this.task = Path.of("/proc", Long.toString(pid), "task");
  }

  @Override
  public long applyAsLong(long tid) {
    Path dir = task.resolve(Long.toString(tid));
    try {
      String sched = Files.readString(dir.resolve("schedstat"), StandardCharsets.US_ASCII).trim();
      return Long.parseLong(sched.substring(0, sched.indexOf(' ')));
    } catch (IOException | RuntimeException e) {
      return fromStat(dir);
    }
  }

  /** The OS ids of the target's live threads; empty where {@code /proc} cannot be listed. */
  Collection<Long> live() {
    List<Long> tids = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(task)) {
      dirs.forEach(d -> {
        try {
          tids.add(Long.parseLong(d.getFileName().toString()));
        } catch (NumberFormatException e) {
          // not a thread's directory
        }
      });
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
    return tids;
  }

  private static long fromStat(Path dir) {
    try {
      String stat = Files.readString(dir.resolve("stat"), StandardCharsets.US_ASCII);
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
