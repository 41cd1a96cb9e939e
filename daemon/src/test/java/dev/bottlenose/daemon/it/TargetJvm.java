package dev.bottlenose.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.daemon.attach.RelocatedClasses;
import dev.bottlenose.daemon.it.workload.ItWorkload;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A real target JVM running {@link ItWorkload} (relocated to {@value #PACKAGE}); closing it ends the process. */
public final class TargetJvm implements AutoCloseable {
  public static final String PACKAGE = "itworkload";
  public static final String MAIN = PACKAGE + ".ItWorkload";
  public static final String STEP = "/Code/itworkload/ItWorkload/step(I)J";
  public static final String BATCH = "/Code/itworkload/ItWorkload/batch(I)J";
  private static Path classes;

  private final Process process;

  private TargetJvm(Process process) {
    this.process = process;
  }

  /** Starts the workload on JDK 17 (this JVM's java) with {@code jvmFlags}. */
  public static TargetJvm start(String... jvmFlags) throws IOException {
    return startWith(Path.of(System.getProperty("java.home")), jvmFlags);
  }

  public static TargetJvm startWith(Path javaHome, String... jvmFlags) throws IOException {
    Process p = new ProcessBuilder(command(javaHome, jvmFlags)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    assertThat(line).as("workload said ready").isEqualTo("ready");
    return new TargetJvm(p);
  }

  /** {@code java <flags> -cp <relocated classes> itworkload.ItWorkload}. */
  public static List<String> command(Path javaHome, String... jvmFlags) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(javaHome.resolve("bin/java").toString());
    command.addAll(List.of(jvmFlags));
    command.addAll(List.of("-Xmx64m", "-cp", classes().toString(), MAIN));
    return command;
  }

  static synchronized Path classes() throws IOException {
    if (classes == null) {
      classes = RelocatedClasses.write(ItWorkload.class, PACKAGE, Files.createTempDirectory("bottlenose-it"));
    }
    return classes;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Lets the workload end by itself (closes its stdin) and waits for it. */
  public void exit() throws IOException, InterruptedException {
    process.getOutputStream().close();
    assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
  }

  @Override
  public void close() throws InterruptedException {
    stop(process);
  }

  /**
   * Stops a target as an operator would (SIGTERM), so that its JVM runs its shutdown hooks and JFR removes the
   * repository the agent's recording wrote (a killed JVM leaves it in the temporary directory); killed only if it
   * has not ended within 3 s.
   */
  static void stop(Process process) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(3, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
