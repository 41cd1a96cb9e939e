package dev.bottlenose.tests.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A benchmark's child JVM, on the benchmark's class path, that reports its figures in a line of its output. */
final class ChildJvm {
  private ChildJvm() {}

  /**
   * Runs {@code main} with {@code jvmOptions} and {@code args} to its end and answers the last line of its output
   * that {@code report} finds in, matched; fails (naming {@code what}) when it exits non-zero or reports nothing.
   */
  static Matcher run(String what, List<String> jvmOptions, Class<?> main, Pattern report, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(DiagnosisBenchmark.java()));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String found = null;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (report.matcher(line).find()) {
          found = line;
        }
      }
    }
    if (p.waitFor() != 0 || found == null) {
      throw new IllegalStateException(what + " failed (exit " + p.exitValue() + ")");
    }
    Matcher m = report.matcher(found);
    m.find();
    return m;
  }

  /**
   * Deletes the JFR disk repositories of process {@code pid} in {@code java.io.tmpdir} ({@code <time>_<pid>}, as JFR
   * names them): a child that was killed cannot delete its own. Best effort; links are not followed.
   */
  static void removeJfrRepositories(long pid) {
    Pattern name = Pattern.compile("\\d{4}(_\\d{2}){5}_" + pid);
    try (var entries = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      for (Path dir : entries.filter(d -> name.matcher(d.getFileName().toString()).matches()
          && Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)).toList()) {
        try (var all = Files.walk(dir)) {
          all.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
      }
    } catch (IOException | RuntimeException e) {
      // what is left is only disk space in the temporary directory
    }
  }
}
