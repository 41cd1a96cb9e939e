package dev.bottlenose.daemon.attach;

import dev.bottlenose.agent.AgentOptions;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts {@code java …} with {@code -javaagent:<agent jar>=<options>} right after the java executable. */
public final class Launcher {
  private Launcher() {}

  /** The command with the agent flag inserted; the first word must be a java executable. */
  public static List<String> withAgent(List<String> command, Path agentJar, AgentOptions options)
      throws AttachException {
    if (command.isEmpty()) {
      throw new AttachException("no command to launch: give a java command line after --");
    }
    String exe = command.get(0);
    String name = Path.of(exe).getFileName().toString();
    if (!name.equals("java") && !name.equals("java.exe")) {
      throw new AttachException("the command to launch must start with the java executable, not '" + exe + "'");
    }
    List<String> full = new ArrayList<>();
    full.add(exe);
    full.add("-javaagent:" + agentJar.toAbsolutePath() + "=" + options);
    full.addAll(command.subList(1, command.size()));
    return full;
  }

  /**
   * Starts the command with the agent; its stdout and stderr are copied to {@code out} and {@code err}
   * (null discards them), the last stderr lines kept for error messages.
   */
  public static LaunchedProcess launch(List<String> command, Path agentJar, AgentOptions options, PrintStream out,
      PrintStream err) throws AttachException {
    List<String> full = withAgent(command, agentJar, options);
    checkJavaVersion(full.get(0));
    try {
      Process process = new ProcessBuilder(full).redirectInput(ProcessBuilder.Redirect.INHERIT).start();
      OutputPump.start(process.getInputStream(), out, "bottlenose-target-stdout");
      return new LaunchedProcess(process, OutputPump.start(process.getErrorStream(), err, "bottlenose-target-stderr"));
    } catch (IOException e) {
      throw new AttachException("could not start " + full.get(0) + ": " + e.getMessage(), e);
    }
  }

  private static void checkJavaVersion(String exe) throws AttachException {
    Path resolved = resolve(exe);
    if (resolved == null) {
      throw new AttachException("java executable not found: " + exe);
    }
    Path home = resolved.toAbsolutePath().getParent().getParent();
    JavaVersion version = home == null ? null : ProcInspector.releaseVersion(home).orElse(null);
    if (version != null && version.feature() > 0 && version.feature() < Preflight.MIN_FEATURE) {
      throw new AttachException(exe + " is Java " + version + "; the Bottlenose agent needs Java "
          + Preflight.MIN_FEATURE + " or later");
    }
  }

  private static Path resolve(String exe) {
    if (exe.contains(File.separator)) {
      return Files.isExecutable(Path.of(exe)) ? realPath(Path.of(exe)) : null;
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, exe);
      if (Files.isExecutable(candidate)) {
        return realPath(candidate);
      }
    }
    return null;
  }

  private static Path realPath(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p;
    }
  }
}
