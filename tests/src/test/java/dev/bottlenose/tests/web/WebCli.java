package dev.bottlenose.tests.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The service's command line ({@code java -jar bottlenose-web-all.jar …}) as a real process, in the cluster named by a secret. */
final class WebCli {
  /** What one run printed and how it ended. */
  record Run(int exitCode, String out, String err) {}

  private WebCli() {}

  static Run run(String secret, long timeoutSeconds, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dbottlenose.daemon.jar=" + System.getProperty("bottlenose.daemon.jar", "../daemon/target/bottlenose-daemon-all.jar"),
        "-jar", webJar().toString()));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile("bottlenose-web-out-", ".txt");
    Path err = Files.createTempFile("bottlenose-web-err-", ".txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().put("BOTTLENOSE_CLUSTER_SECRET", secret);
    Process p = pb.start();
    try {
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroy();
        p.waitFor(30, TimeUnit.SECONDS);
        throw new AssertionError("bottlenose " + String.join(" ", args) + " did not end within " + timeoutSeconds + " s; it printed:\n"
            + read(out) + "\n--- stderr:\n" + read(err));
      }
      return new Run(p.exitValue(), read(out), read(err));
    } finally {
      p.destroyForcibly();
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  static Path webJar() {
    Path jar = Paths.get(System.getProperty("bottlenose.web.jar", "../web/target/bottlenose-web-all.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("web jar not built: " + jar.toAbsolutePath());
    }
    return jar;
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }
}
