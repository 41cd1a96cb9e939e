package dev.bottlenose.tests.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The JDK's {@code jcmd}, run as a user would against a target: what a test checks the target by, not the tool. */
public final class Jcmd {
  private Jcmd() {}

  /** The output of {@code jcmd <pid> <command...>} (its stderr too); fails when it has not ended in 30 s. */
  public static String run(long pid, String... command) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(pid)));
    cmd.addAll(List.of(command));
    Process jcmd = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!jcmd.waitFor(30, TimeUnit.SECONDS)) {
      jcmd.destroyForcibly();
      throw new IOException("jcmd " + pid + " " + String.join(" ", command) + " did not end in 30 s");
    }
    return out;
  }
}
