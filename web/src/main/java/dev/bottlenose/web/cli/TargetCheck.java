package dev.bottlenose.web.cli;

import dev.bottlenose.cli.UsageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What can be told about a target pid on this machine in milliseconds, before joining the cluster and starting
 * a daemon (which take seconds): that the process exists, that this user may attach to it, and, where
 * {@code /proc} shows it, that it runs a JVM. The daemon's own preflight checks the rest (Java version,
 * dynamic attach allowed) once it starts.
 */
final class TargetCheck {
  private TargetCheck() {}

  /** Throws a usage error naming what is wrong with {@code pid} as a target; returns quietly when nothing is. */
  static void check(long pid) {
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    if (process.isEmpty() || !process.get().isAlive()) {
      throw new UsageException("no process with pid " + pid + " ('bottlenose jvms' lists the JVMs you can search)");
    }
    String user = System.getProperty("user.name");
    Optional<String> owner = process.get().info().user();
    if (owner.isPresent() && !owner.get().equals(user) && !"root".equals(user)) {
      throw new UsageException("process " + pid + " belongs to user " + owner.get() + " but bottlenose runs as " + user
          + "; the attach mechanism only lets the same user (or root) in: run bottlenose as " + owner.get());
    }
    if (!runsAJvm(Path.of("/proc", Long.toString(pid), "maps"))) {
      throw new UsageException("process " + pid + " (" + process.get().info().command().orElse("?")
          + ") is not a JVM: no libjvm in its memory map ('bottlenose jvms' lists the JVMs you can search)");
    }
  }

  /** True when {@code maps} lists a libjvm, or cannot be read (not Linux, or not ours to read: the daemon decides). */
  static boolean runsAJvm(Path maps) {
    if (!Files.isReadable(maps)) {
      return true;
    }
    try (Stream<String> lines = Files.lines(maps, StandardCharsets.UTF_8)) {
      return lines.anyMatch(l -> l.endsWith("/libjvm.so"));
    } catch (IOException | java.io.UncheckedIOException e) {
      return true;
    }
  }
}
