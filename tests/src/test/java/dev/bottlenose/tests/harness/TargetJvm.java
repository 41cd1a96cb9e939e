package dev.bottlenose.tests.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real target JVM running a workload main from the test classes, driven line by line: the test
 * writes commands to its standard input and reads the lines it prints. Closing kills it.
 */
public final class TargetJvm implements AutoCloseable {
  private final Process process;
  private final Writer stdin;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final StringBuffer stdout = new StringBuffer();
  private final StringBuffer stderr = new StringBuffer();
  /** The JVM's pid on this machine: the process's, or a descendant's when a command wraps the JVM. */
  private volatile long pid;

  private TargetJvm(Process process) {
    this.process = process;
    this.pid = process.pid();
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    pump(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), true);
    pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), false);
  }

  /** Starts {@code mainClass} on the given JDK with extra JVM options and waits for its "ready" line. */
  public static TargetJvm start(Jdk jdk, Class<?> mainClass, String... jvmOptions) throws IOException {
    TargetJvm target = new TargetJvm(new ProcessBuilder(command(jdk, mainClass, jvmOptions)).start());
    target.awaitLine("ready", Duration.ofSeconds(30));
    return target;
  }

  /**
   * As {@link #start}, in a container as far as this machine allows one: a pid namespace and a mount namespace of
   * its own ({@code unshare}, as root), with a {@code /tmp} of its own, so the JVM's pid in there is another than
   * on the machine and its temporary files (attach socket, performance counters, JFR's repository) are not in the
   * machine's {@code /tmp}. {@link #pid} is the JVM's pid on the machine, as {@code ps} shows it.
   */
  public static TargetJvm startContained(Jdk jdk, Class<?> mainClass, String... jvmOptions) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("unshare", "--pid", "--fork", "--kill-child", "--mount", "--mount-proc",
        "sh", "-c", "mount -t tmpfs -o mode=1777 tmpfs /tmp && \"$@\"", "sh"));
    cmd.addAll(command(jdk, mainClass, jvmOptions));
    TargetJvm target = new TargetJvm(new ProcessBuilder(cmd).start());
    target.awaitLine("ready", Duration.ofSeconds(30));
    target.pid = target.process.toHandle().descendants()
        .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false)).mapToLong(ProcessHandle::pid)
        .findFirst().orElseThrow(() -> new AssertionError("no java process below " + target.process.pid()));
    return target;
  }

  private static List<String> command(Jdk jdk, Class<?> mainClass, String... jvmOptions) {
    List<String> cmd = new ArrayList<>();
    cmd.add(jdk.java().toString());
    cmd.add("-Xverify:all".equals(System.getProperty("bottlenose.verify")) ? "-Xverify:all" : "-Xshare:auto");
    cmd.addAll(List.of(jvmOptions));
    cmd.add("-cp");
    cmd.add(TargetClasspath.of());
    cmd.add(mainClass.getName());
    return cmd;
  }

  public long pid() {
    return pid;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Sends one command line to the workload. */
  public void send(String line) throws IOException {
    stdin.write(line + "\n");
    stdin.flush();
  }

  /** Waits for the next line that starts with {@code prefix}, skipping others. */
  public String awaitLine(String prefix, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (true) {
        String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (line == null) {
          throw new AssertionError("no line starting with '" + prefix + "' within " + timeout
              + " from pid " + pid() + (isAlive() ? "" : " (exited " + process.exitValue() + ")")
              + "; stderr: " + stderr);
        }
        if (line.startsWith(prefix)) {
          return line;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Everything the target printed on standard output so far (also the lines {@link #awaitLine} read). */
  public String stdout() {
    return stdout.toString();
  }

  /** Everything the target printed on standard error so far. */
  public String stderr() {
    return stderr.toString();
  }

  /** A {@code key=value} field of a line such as {@code done calls=100 nanos=5}. */
  public static long field(String line, String key) {
    for (String word : line.split("\\s+")) {
      if (word.startsWith(key + "=")) {
        return Long.parseLong(word.substring(key.length() + 1));
      }
    }
    throw new AssertionError("no " + key + "= in '" + line + "'");
  }

  /**
   * Stops the workload as an operator would (SIGTERM), so that its JVM runs its shutdown hooks and JFR removes the
   * repository the agent's recording wrote (a killed JVM leaves it in the temporary directory); killed only if it
   * has not ended within 3 s.
   */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(3, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private void pump(BufferedReader reader, boolean out) {
    Thread t = new Thread(() -> {
      try {
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          if (out) {
            stdout.append(line).append('\n');
            lines.add(line);
          } else {
            stderr.append(line).append('\n');
          }
        }
      } catch (IOException e) {
        stderr.append("[pump] ").append(e).append('\n');
      }
    }, "target-" + (out ? "stdout" : "stderr"));
    t.setDaemon(true);
    t.start();
  }

  /** The JDKs target JVMs run on. */
  public enum Jdk {
    JDK17(Paths.get(System.getProperty("java.home"))),
    JDK25(Paths.get(System.getProperty("bottlenose.jdk25.home", "/usr/lib/jvm/temurin-25-jdk-amd64")));

    private final Path home;

    Jdk(Path home) {
      this.home = home;
    }

    public Path java() {
      Path java = home.resolve("bin/java");
      if (!Files.isExecutable(java)) {
        throw new IllegalStateException("no JDK at " + home + " (set -Dbottlenose.jdk25.home)");
      }
      return java;
    }
  }
}
