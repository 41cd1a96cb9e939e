package dev.bottlenose.daemon.attach;

import java.io.IOException;
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

  /** True when process {@code pid} is in this process's mount namespace, or that cannot be told (not Linux, gone). */
  static boolean sameMounts(long pid) {
    try {
      return Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "ns", "mnt"))
          .equals(Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")));
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return true;
    }
  }
}
