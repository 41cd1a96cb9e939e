package dev.bottlenose.daemon.cli;

import dev.bottlenose.daemon.attach.RelocatedClasses;
import dev.bottlenose.demo.DemoWorkload;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The bundled demo workload running in its own JVM, with only its own classes on the class path
 * (copied out of this jar, so the target does not see the daemon's or the agent's classes).
 */
final class DemoProcess implements AutoCloseable {
  static final String PACKAGE = DemoWorkload.class.getPackageName();
  static final String MAIN_CLASS = PACKAGE + "." + DemoWorkload.class.getSimpleName();
  private final Path classes;
  private final Process process;

  private DemoProcess(Path classes, Process process) {
    this.classes = classes;
    this.process = process;
  }

  static DemoProcess start() throws IOException {
    Path classes = Files.createTempDirectory("bottlenose-demo-classes");
    RelocatedClasses.write(DemoWorkload.class, PACKAGE, classes);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process = new ProcessBuilder(java, "-Xmx64m", "-cp", classes.toString(), MAIN_CLASS)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    DemoProcess demo = new DemoProcess(classes, process);
    demo.awaitReady(process.getInputStream());
    return demo;
  }

  long pid() {
    return process.pid();
  }

  private void awaitReady(InputStream out) throws IOException {
    BufferedReader reader = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8));
    String line = reader.readLine();
    if (line == null || !line.startsWith("ready")) {
      close();
      throw new IOException("the demo workload did not start (it said: " + line + ")");
    }
  }

  /** Closes the workload's input (it exits on its own), waits briefly, then destroys it if needed. */
  @Override
  public void close() {
    try {
      process.getOutputStream().close();
      if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    deleteTree(classes);
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      System.err.println("bottlenose: could not delete " + dir + ": " + e.getMessage());
    }
  }
}
