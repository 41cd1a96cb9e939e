package dev.bottlenose.agent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A real target JVM running {@link AgentWorkload} (relocated, on a class path of its own), driven on its stdin. */
final class Target implements AutoCloseable {
  static final Path AGENT_JAR = Path.of(System.getProperty("bottlenose.agent.jar", "target/bottlenose-agent.jar"));

  final Path keptOpen;
  private final Path classes;
  private final Process process;
  private final Writer stdin;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final StringBuffer stderr = new StringBuffer();

  private Target(Process process, Path keptOpen, Path classes) {
    this.process = process;
    this.keptOpen = keptOpen;
    this.classes = classes;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    pump(process.getInputStream(), true);
    pump(process.getErrorStream(), false);
  }

  /** Starts the workload on the JDK at {@code javaHome} with {@code jvmOptions}; waits until it is ready. */
  static Target start(Path javaHome, String... jvmOptions) throws IOException {
    Path classes = WorkloadClasses.writeTo(Files.createTempDirectory("bottlenose-agent-it"));
    Path file = Files.createTempFile("bottlenose-agent-it", ".txt");
    List<String> cmd = new ArrayList<>();
    cmd.add(javaHome.resolve("bin/java").toString());
    cmd.add("-Xmx64m");
    cmd.addAll(List.of(jvmOptions));
    cmd.add("-cp");
    cmd.add(classes.toString());
    cmd.add(WorkloadClasses.MAIN_CLASS);
    cmd.add(file.toString());
    Target target = new Target(new ProcessBuilder(cmd).start(), file, classes);
    target.awaitLine("ready", Duration.ofSeconds(20));
    return target;
  }

  static Path jdk17() {
    return Path.of(System.getProperty("java.home"));
  }

  static Path jdk25() {
    return Path.of(System.getProperty("bottlenose.jdk25.home", "/usr/lib/jvm/temurin-25-jdk-amd64"));
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Runs {@code tick n} and returns the workload's answer line. */
  String tick(int n) throws IOException {
    return command("tick " + n, "ticked");
  }

  /** Sends one command line and returns the first answer line starting with {@code answer}. */
  String command(String line, String answer) throws IOException {
    stdin.write(line + "\n");
    stdin.flush();
    return awaitLine(answer, Duration.ofSeconds(10));
  }

  String awaitLine(String prefix, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (true) {
        String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (line == null) {
          throw new AssertionError("no line starting with '" + prefix + "' within " + timeout + " from pid "
              + pid() + (isAlive() ? "" : " (exited " + process.exitValue() + ")") + "; stderr: " + stderr);
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

  String stderr() {
    return stderr.toString();
  }

  @Override
  public void close() throws IOException {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Files.deleteIfExists(keptOpen);
    try (java.util.stream.Stream<Path> files = Files.walk(classes)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private void pump(java.io.InputStream stream, boolean out) {
    BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
    Thread t = new Thread(() -> {
      try {
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          if (out) {
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
}
