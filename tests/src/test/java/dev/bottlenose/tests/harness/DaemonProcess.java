package dev.bottlenose.tests.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A real Bottlenose daemon process ({@code bottlenose daemon --pid N}), its output kept in a file. */
public final class DaemonProcess implements AutoCloseable {
  private final Process process;
  private final Path log;
  private final String id;

  private DaemonProcess(Process process, Path log, String id) {
    this.process = process;
    this.log = log;
    this.id = id;
  }

  /** Starts a daemon for {@code pid} in the cluster named by {@code secret}, with the given extra options. */
  public static DaemonProcess attach(long pid, String secret, String... options) throws IOException {
    String id = "e2e-" + pid;
    List<String> cmd = new ArrayList<>(List.of(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", daemonJar().toString(), "daemon", "--pid", Long.toString(pid), "--id", id));
    cmd.addAll(List.of(options));
    Path log = ProcessLogs.create("bottlenose-daemon-" + pid + "-", ".log");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("BOTTLENOSE_CLUSTER_SECRET", secret);
    return new DaemonProcess(pb.start(), log, id);
  }

  /**
   * Starts {@code bottlenose daemon [options] -- <command>} (launch mode: the daemon starts the target with the
   * agent on its command line) in the cluster named by {@code secret}.
   */
  public static DaemonProcess launch(String secret, List<String> command, String... options) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", daemonJar().toString(), "daemon"));
    cmd.addAll(List.of(options));
    cmd.add("--");
    cmd.addAll(command);
    Path log = ProcessLogs.create("bottlenose-daemon-launch-", ".log");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
        .redirectInput(ProcessBuilder.Redirect.PIPE);
    pb.environment().put("BOTTLENOSE_CLUSTER_SECRET", secret);
    return new DaemonProcess(pb.start(), log, null);
  }

  /** The daemon process's pid. */
  public long pid() {
    return process.pid();
  }

  public static Path daemonJar() {
    Path jar = Paths.get(System.getProperty("bottlenose.daemon.jar", "../daemon/target/bottlenose-daemon-all.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("daemon jar not built: " + jar.toAbsolutePath());
    }
    return jar;
  }

  /** The daemon id on the event bus. */
  public String id() {
    return id;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** What the daemon printed so far. */
  public String output() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(unreadable " + log + ": " + e + ")";
    }
  }

  /** Kills the daemon outright (SIGKILL), as a crash would. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      kill();
    }
  }
}
