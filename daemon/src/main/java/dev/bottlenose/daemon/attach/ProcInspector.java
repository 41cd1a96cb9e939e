package dev.bottlenose.daemon.attach;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads {@link TargetFacts} from {@code /proc} without attaching: cheap, and harmless to the target. */
final class ProcInspector {
  private static final Path PROC = Path.of("/proc");

  private ProcInspector() {}

  static TargetFacts inspect(long pid) {
    boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    Path dir = PROC.resolve(Long.toString(pid));
    if (!alive || !Files.isDirectory(dir)) {
      return new TargetFacts(pid, false, false, null, null, null, List.of(), List.of());
    }
    List<String> argv = readNulSeparated(dir.resolve("cmdline"));
    Path home = javaHome(pid, dir);
    JavaVersion version = home == null ? null : releaseVersion(TargetPaths.seenFromHere(pid, home)).orElse(null);
    return new TargetFacts(pid, true, home != null, owner(dir), home == null ? null : home.toString(),
        version, jvmFlags(argv, environment(dir)), argv);
  }

  /** The JDK version in {@code <home>/release}, e.g. {@code JAVA_VERSION="17.0.15"}. */
  static Optional<JavaVersion> releaseVersion(Path home) {
    try {
      for (String line : Files.readAllLines(home.resolve("release"), StandardCharsets.UTF_8)) {
        if (line.startsWith("JAVA_VERSION=")) {
          return Optional.of(JavaVersion.parse(line.substring("JAVA_VERSION=".length()).replace("\"", "")));
        }
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  /** The flags the JVM sees, in the order it applies them: JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS, argv, _JAVA_OPTIONS. */
  static List<String> jvmFlags(List<String> argv, Map<String, String> env) {
    List<String> flags = new ArrayList<>(words(env.get("JAVA_TOOL_OPTIONS")));
    flags.addAll(words(env.get("JDK_JAVA_OPTIONS")));
    flags.addAll(JavaCommandLine.parse(argv).options());
    flags.addAll(words(env.get("_JAVA_OPTIONS")));
    return flags;
  }

  private static List<String> words(String text) {
    return text == null || text.isBlank() ? List.of() : Arrays.asList(text.trim().split("\\s+"));
  }

  /** The target's JDK, as the target names it (in a container: in the container's filesystem). */
  private static Path javaHome(long pid, Path dir) {
    try {
      for (String line : Files.readAllLines(dir.resolve("maps"), StandardCharsets.UTF_8)) {
        int at = line.indexOf('/');
        if (at >= 0 && line.endsWith("/libjvm.so")) {
          Path lib = Path.of(line.substring(at)).getParent().getParent();
          return lib.getParent();
        }
      }
      return null;
    } catch (IOException | RuntimeException e) {
      return homeFromExecutable(pid, dir);
    }
  }

  private static Path homeFromExecutable(long pid, Path dir) {
    try {
      Path exe = Files.readSymbolicLink(dir.resolve("exe"));
      Path home = exe.getParent() == null ? null : exe.getParent().getParent();
      return home != null && Files.exists(TargetPaths.seenFromHere(pid, home).resolve("release")) ? home : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static String owner(Path dir) {
    try {
      return Files.getOwner(dir).getName();
    } catch (IOException e) {
      return null;
    }
  }

  private static Map<String, String> environment(Path dir) {
    Map<String, String> env = new java.util.HashMap<>();
    for (String entry : readNulSeparated(dir.resolve("environ"))) {
      int eq = entry.indexOf('=');
      if (eq > 0) {
        env.put(entry.substring(0, eq), entry.substring(eq + 1));
      }
    }
    return env;
  }

  private static List<String> readNulSeparated(Path file) {
    try {
      String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
      List<String> parts = new ArrayList<>();
      for (String p : text.split("\0")) {
        if (!p.isEmpty()) {
          parts.add(p);
        }
      }
      return parts;
    } catch (IOException e) {
      return List.of();
    }
  }
}
