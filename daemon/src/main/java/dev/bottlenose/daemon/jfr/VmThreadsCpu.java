package dev.bottlenose.daemon.jfr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU time of the target's VM threads that do the side work of measuring: the VM Thread (safepoints for
 * retransforming classes, deoptimisation) and the JIT compiler threads (recompiling what a probe changed or
 * a retransformation threw away). Read from Linux's {@code /proc} by thread name; -1 elsewhere. They also work
 * for the program itself, so a user of this number compares it with a resting baseline.
 */
public final class VmThreadsCpu {
  private static final List<String> NAMES = List.of("VM Thread", "C1 CompilerThre", "C2 CompilerThre");

  private final Path task;
  private final ThreadCpuTimes cpu;
  private final Map<Long, Boolean> side = new HashMap<>();

  public VmThreadsCpu(long pid) {
    this.task = Path.of("/proc", Long.toString(pid), "task");
    this.cpu = new ThreadCpuTimes(pid);
  }

  /** The summed CPU time of the live side threads, ns; -1 when {@code /proc} cannot tell. */
  public synchronized long nanos() {
    long sum = 0;
    boolean any = false;
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(task)) {
      for (Path t : threads) {
        long tid = Long.parseLong(t.getFileName().toString());
        if (side.computeIfAbsent(tid, id -> isSide(t))) {
          long n = cpu.applyAsLong(tid);
          if (n >= 0) {
            sum += n;
            any = true;
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return any ? sum : -1;
  }

  private static boolean isSide(Path thread) {
    try {
      String name = Files.readString(thread.resolve("comm"), StandardCharsets.UTF_8).trim();
      return NAMES.stream().anyMatch(name::startsWith);
    } catch (IOException e) {
      return false;
    }
  }
}
