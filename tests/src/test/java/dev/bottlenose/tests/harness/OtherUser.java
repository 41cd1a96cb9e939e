package dev.bottlenose.tests.harness;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs a main class of the test class path as another local user, uid and gid {@value #UID} ({@code nobody}),
 * the way an attacker with an ordinary account on the same machine would run it. Needs root (to switch user
 * with {@code setpriv}); {@link #available()} says whether this machine's tests can, and tests that need it
 * are skipped otherwise.
 *
 * <p>The other user cannot read this user's files, so the class path is copied once into a directory
 * everyone can read; the other user's home is a fresh directory of its own (so it has its own Bottlenose
 * secret, not this user's), and no {@code BOTTLENOSE_*} variable is passed on.
 */
public final class OtherUser {
  public static final int UID = 65534;
  private static final Path SETPRIV = Path.of("/usr/bin/setpriv");
  private static String copiedClassPath;

  private OtherUser() {}

  /** Whether this process may run processes as uid {@value #UID}: it is root and {@code setpriv} is there. */
  public static boolean available() {
    return "root".equals(System.getProperty("user.name")) && Files.isExecutable(SETPRIV);
  }

  /** What a finished run printed, and how it ended. */
  public record Result(int exitCode, String output) {}

  /** Starts {@code main} as the other user with {@code args}; output and errors go to one stream. */
  public static Process start(Class<?> main, String... args) {
    try {
      Path home = Files.createTempDirectory("bottlenose-other-home-");
      Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
      Files.setAttribute(home, "unix:uid", UID);
      Files.setAttribute(home, "unix:gid", UID);
      List<String> command = new ArrayList<>(List.of(SETPRIV.toString(), "--reuid=" + UID, "--regid=" + UID,
          "--clear-groups", "--inh-caps=-all", "--", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Duser.home=" + home, "-cp", classPath(), main.getName()));
      command.addAll(List.of(args));
      ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).directory(home.toFile());
      pb.environment().keySet().removeIf(k -> k.startsWith("BOTTLENOSE_"));
      pb.environment().put("HOME", home.toString());
      return pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code main} as the other user to its end (killed after {@code timeout}). */
  public static Result run(Duration timeout, Class<?> main, String... args) throws InterruptedException {
    Process p = start(main, args);
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor();
      }
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return new Result(p.exitValue(), output);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The test class path, copied (once per test JVM) where the other user can read it. */
  private static synchronized String classPath() throws IOException {
    if (copiedClassPath == null) {
      Path root = Files.createTempDirectory("bottlenose-other-cp-");
      List<String> entries = new ArrayList<>();
      int i = 0;
      for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
        Path source = Path.of(entry);
        if (!Files.exists(source)) {
          continue;
        }
        Path target = root.resolve(i++ + "-" + source.getFileName());
        copy(source, target);
        entries.add(target.toString());
      }
      try (Stream<Path> all = Files.walk(root)) {
        for (Path p : (Iterable<Path>) all::iterator) {
          Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
        }
      }
      copiedClassPath = String.join(File.pathSeparator, entries);
      Path base = root;
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(base)));
    }
    return copiedClassPath;
  }

  private static void copy(Path source, Path target) throws IOException {
    if (!Files.isDirectory(source)) {
      Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
      return;
    }
    try (Stream<Path> all = Files.walk(source)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path to = target.resolve(source.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else {
          Files.copy(p, to);
        }
      }
    }
  }

  private static void deleteQuietly(Path root) {
    try (Stream<Path> all = Files.walk(root)) {
      all.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary copy of the class path; the system's temp cleaning removes what is left
    }
  }
}
