package dev.bottlenose.daemon.attach;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A path a target JVM names, as this process reaches it. A target in a container sees a filesystem of its own (its
 * {@code /tmp}, where JFR's repository and the agent's recording dumps go; its JDK), so what it names is read below
 * its root as the kernel shows it to others, {@code /proc/<pid>/root}. A target in this process's mount namespace
 * names the same files this process sees, and its paths are taken as they are.
 */
public final class TargetPaths {
  private TargetPaths() {}

  /**
   * {@code named} (an absolute path in process {@code pid}'s filesystem) as this process reaches it; a path that is not
   * absolute, or null, is returned as it is, for the caller's checks to refuse.
   */
  public static String seenFromHere(long pid, String named) {
    if (named == null || !named.startsWith("/") || sameMounts(pid)) {
      return named;
    }
    return "/proc/" + pid + "/root" + named;
  }

  /** As {@link #seenFromHere(long, String)}, for a path. */
  public static Path seenFromHere(long pid, Path named) {
    return named == null ? null : Path.of(seenFromHere(pid, named.toString()));
  }

  /** The pid of process {@code pid} in its own pid namespace (the last of {@code NSpid}), else {@code pid}. */
  public static long namespacePid(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.US_ASCII)) {
        if (line.startsWith("NSpid:")) {
          String[] f = line.substring(6).trim().split("\\s+");
          return Long.parseLong(f[f.length - 1]);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or the process is gone
    }
    return pid;
  }

  /** True when process {@code pid} is in this process's mount namespace, or that cannot be told (not Linux, gone). */
  public static boolean sameMounts(long pid) {
    try {
      return Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "ns", "mnt"))
          .equals(Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")));
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return true;
    }
  }
}
