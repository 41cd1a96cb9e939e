package dev.bottlenose.web.cli;

import dev.bottlenose.web.demo.PrimeCounter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The demo workload ({@link PrimeCounter}: four threads busy in {@code isPrime(J)Z}) in its own JVM. Its
 * classes are copied out of this jar (or class directory) into a directory of their own, so the target
 * sees none of the service's classes. It exits when its standard input closes.
 */
final class DemoWorkloadProcess implements AutoCloseable {
  static final String PACKAGE = PrimeCounter.class.getPackageName();
  static final String MAIN_CLASS = PrimeCounter.class.getName();
  static final String HOT_METHOD = "/Code/" + PACKAGE + "/" + PrimeCounter.class.getSimpleName() + "/isPrime(J)Z";
  private final Path classes;
  private final Process process;

  private DemoWorkloadProcess(Path classes, Process process) {
    this.classes = classes;
    this.process = process;
  }

  static DemoWorkloadProcess start() throws IOException {
    Path classes = Files.createTempDirectory("bottlenose-demo-classes");
    Path source = codeSource();
    try {
      if (Files.isDirectory(source)) {
        copyDirectory(source, classes);
      } else {
        copyPackage(source, classes);
      }
    } catch (IOException e) {
      deleteTree(classes);
      throw new IOException("cannot copy the demo workload out of " + source + ": " + e.getMessage(), e);
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process = new ProcessBuilder(java, "-Xmx64m", "-cp", classes.toString(), MAIN_CLASS)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    DemoWorkloadProcess demo = new DemoWorkloadProcess(classes, process);
    demo.awaitReady(process.getInputStream());
    return demo;
  }

  private static Path codeSource() throws IOException {
    try {
      return Path.of(PrimeCounter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException | RuntimeException e) {
      throw new IOException("cannot find where the demo workload's classes are: " + e, e);
    }
  }

  private static void copyDirectory(Path root, Path dir) throws IOException {
    String prefix = PACKAGE.replace('.', '/');
    Path from = root.resolve(prefix);
    Files.createDirectories(dir.resolve(prefix));
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
        Files.copy(f, dir.resolve(prefix).resolve(f.getFileName().toString()));
      }
    }
  }

  private static void copyPackage(Path jar, Path dir) throws IOException {
    String prefix = PACKAGE.replace('.', '/') + "/";
    int copied = 0;
    try (JarFile file = new JarFile(jar.toFile())) {
      for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements();) {
        JarEntry entry = e.nextElement();
        String name = entry.getName();
        if (name.startsWith(prefix) && name.endsWith(".class") && name.indexOf('/', prefix.length()) < 0) {
          Path target = dir.resolve(name);
          Files.createDirectories(target.getParent());
          try (InputStream in = file.getInputStream(entry)) {
            Files.copy(in, target);
          }
          copied++;
        }
      }
    }
    if (copied == 0) {
      throw new IOException("no classes of " + PACKAGE + " in it");
    }
  }

  long pid() {
    return process.pid();
  }

  private void awaitReady(InputStream out) throws IOException {
    String line = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8)).readLine();
    if (line == null || !line.startsWith("ready")) {
      close();
      throw new IOException("the demo workload did not start (it said: " + line + ")");
    }
  }

  @Override
  public void close() {
    try {
      process.getOutputStream().close();
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
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
