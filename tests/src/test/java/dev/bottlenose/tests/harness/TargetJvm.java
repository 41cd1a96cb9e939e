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
  private final StringBuffer stderr = new StringBuffer();

  private TargetJvm(Process process) {
    this.process = process;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    pump(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), true);
    pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), false);
  }

  /** Starts {@code mainClass} on the given JDK with extra JVM options and waits for its "ready" line. */
  public static TargetJvm start(Jdk jdk, Class<?> mainClass, String... jvmOptions) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(jdk.java().toString());
    cmd.add("-Xverify:all".equals(System.getProperty("bottlenose.verify")) ? "-Xverify:all" : "-Xshare:auto");
    cmd.addAll(List.of(jvmOptions));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(mainClass.getName());
    TargetJvm target = new TargetJvm(new ProcessBuilder(cmd).start());
    target.awaitLine("ready", Duration.ofSeconds(30));
    return target;
  }

  public long pid() {
    return process.pid();
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

  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void pump(BufferedReader reader, boolean out) {
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
