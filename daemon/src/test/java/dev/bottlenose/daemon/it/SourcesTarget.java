package dev.bottlenose.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.daemon.attach.RelocatedClasses;
import dev.bottlenose.daemon.it.sourceload.SourcesWorkload;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A real target JVM running {@link SourcesWorkload} (relocated to {@value #PACKAGE}), driven one scenario at a time. */
final class SourcesTarget implements AutoCloseable {
  static final String PACKAGE = "srcworkload";
  static final String CLASS = "/Code/" + PACKAGE + "/SourcesWorkload";
  private static Path classes;

  private final Process process;
  private final BufferedReader out;
  private final Writer in;

  private SourcesTarget(Process process) {
    this.process = process;
    this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
  }

  static SourcesTarget start(String... jvmFlags) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(jvmFlags));
    command.addAll(List.of("-Xmx64m", "-cp", classes().toString(), PACKAGE + ".SourcesWorkload"));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    SourcesTarget target = new SourcesTarget(p);
    assertThat(target.out.readLine()).as("workload said ready").isEqualTo("ready");
    return target;
  }

  private static synchronized Path classes() throws IOException {
    if (classes == null) {
      classes = RelocatedClasses.write(SourcesWorkload.class, PACKAGE, Files.createTempDirectory("bottlenose-sources"));
    }
    return classes;
  }

  long pid() {
    return process.pid();
  }

  /** Runs one scenario ({@code "spin 1000"}) and returns the truths it printed, as numbers by key. */
  Map<String, Long> run(String command) throws IOException {
    in.write(command + "\n");
    in.flush();
    String word = command.split(" ")[0];
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.startsWith("done " + word)) {
        Map<String, Long> truths = new HashMap<>();
        for (String part : line.substring(5 + word.length()).trim().split(" ")) {
          int eq = part.indexOf('=');
          truths.put(part.substring(0, eq), Long.parseLong(part.substring(eq + 1)));
        }
        return truths;
      }
    }
    throw new IOException("the workload ended during " + command);
  }

  /** Stops it as {@link TargetJvm#stop} does, which lets JFR remove its repository. */
  @Override
  public void close() throws InterruptedException {
    TargetJvm.stop(process);
  }
}
