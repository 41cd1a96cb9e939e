package dev.bottlenose.tests.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A command of the service's jar ({@code java -jar bottlenose-web-all.jar …}: {@code serve}, {@code search})
 * running as its own process in the cluster named by a secret, its output kept in files, so a test can
 * follow it, kill it outright as a crash would, and read what it printed.
 */
public final class WebProcess implements AutoCloseable {
  private static final Pattern SERVING = Pattern.compile("serving (http://[^ /]+:\\d+)/");
  private final Process process;
  private final Path out;
  private final Path err;

  private WebProcess(Process process, Path out, Path err) {
    this.process = process;
    this.out = out;
    this.err = err;
  }

  /** Starts {@code args} (e.g. {@code serve --port 0 --data D}) with {@code secret} as the cluster secret. */
  public static WebProcess start(String secret, String... args) throws IOException {
    return start(secret, List.of(), args);
  }

  /** As {@link #start(String, String...)}, the JVM given {@code jvmOptions} too (e.g. {@code -Dname=value}). */
  public static WebProcess start(String secret, List<String> jvmOptions, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dbottlenose.daemon.jar=" + DaemonProcess.daemonJar()));
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-jar", webJar().toString()));
    cmd.addAll(List.of(args));
    Path out = ProcessLogs.create("bottlenose-web-out-", ".txt");
    Path err = ProcessLogs.create("bottlenose-web-err-", ".txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().put("BOTTLENOSE_CLUSTER_SECRET", secret);
    return new WebProcess(pb.start(), out, err);
  }

  public static Path webJar() {
    Path jar = Paths.get(System.getProperty("bottlenose.web.jar", "../web/target/bottlenose-web-all.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("web jar not built: " + jar.toAbsolutePath());
    }
    return jar;
  }

  /** The base URL {@code serve} printed, waiting for it up to {@code timeout}. */
  public String awaitUrl(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      Matcher m = SERVING.matcher(out());
      if (m.find()) {
        return m.group(1);
      }
      if (!process.isAlive()) {
        throw new AssertionError("the service exited " + process.exitValue() + ": " + out() + err());
      }
      Thread.sleep(200);
    }
    throw new AssertionError("the service printed no URL within " + timeout + ": " + out() + err());
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Waits for the process to end; its exit code, or -1 if it still runs after {@code timeout}. */
  public int waitFor(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
  }

  /** Kills the process outright (SIGKILL): nothing of it runs afterwards, no shutdown hook. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  public String out() {
    return read(out);
  }

  public String err() {
    return read(err);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(unreadable " + file + ": " + e + ")";
    }
  }

  /** Every process whose command line has a daemon for {@code pid} ({@code daemon --pid <pid>}). */
  public static List<ProcessHandle> daemonsFor(long pid) {
    String marker = "daemon --pid " + pid + " ";
    return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().map(c -> (c + " ").contains(marker))
        .orElse(false)).toList();
  }

  /** Stops the process if it still runs, and deletes what it printed. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      kill();
    }
    try {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    } catch (IOException e) {
      // temporary files; the system's cleaning takes what is left
    }
  }
}
