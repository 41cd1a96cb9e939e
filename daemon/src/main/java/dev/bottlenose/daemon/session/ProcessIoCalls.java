package dev.bottlenose.daemon.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The target's read and write system calls so far, from Linux's {@code /proc/<pid>/io} ({@code syscr} +
 * {@code syscw}), read from outside the target at no cost to it; -1 elsewhere or when the file cannot be read.
 * Their rate is what recording a JFR event per file or socket read and write would cost per second, known
 * before any is recorded: a program doing a million small reads a second is not asked for them one by one.
 */
final class ProcessIoCalls {
  private final Path file;

  ProcessIoCalls(long pid) {
    this.file = Path.of("/proc", Long.toString(pid), "io");
  }

  long calls() {
    try {
      long sum = 0;
      int found = 0;
      for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
        if (line.startsWith("syscr:") || line.startsWith("syscw:")) {
          sum += Long.parseLong(line.substring(6).trim());
          found++;
        }
      }
      return found == 2 ? sum : -1;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
