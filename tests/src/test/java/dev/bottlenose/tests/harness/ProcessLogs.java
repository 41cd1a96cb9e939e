package dev.bottlenose.tests.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the processes the tests start write their output: a file of its own each, under the module's build
 * directory ({@code target/process-logs}), so that a failed run can be read afterwards and a clean build removes
 * them, rather than leaving them in the machine's {@code /tmp}.
 */
final class ProcessLogs {
  private static final Path DIR = Path.of("target", "process-logs").toAbsolutePath();

  private ProcessLogs() {}

  /** A new empty file named {@code prefix<random>suffix}. */
  static Path create(String prefix, String suffix) throws IOException {
    Files.createDirectories(DIR);
    return Files.createTempFile(DIR, prefix, suffix);
  }
}
