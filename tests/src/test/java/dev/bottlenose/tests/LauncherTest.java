package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.cli.ClassArchive;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The launcher {@code ./bottlenose} as a user runs it: one help for both jars, each command sent to its own jar. */
class LauncherTest {
  /** The commands of both jars, as their picocli command trees have them (the hidden ones left out). */
  private static final List<String> COMMANDS = Stream.of(dev.bottlenose.daemon.cli.Main.commandLine(),
          dev.bottlenose.web.cli.Main.commandLine())
      .flatMap(jar -> jar.getSubcommands().values().stream())
      .filter(command -> !command.getCommandSpec().usageMessage().hidden())
      .map(CommandLine::getCommandName).distinct().toList();

  @TempDir
  Path dir;

  @Test
  void helpListsEveryCommandOfBothJars() throws Exception {
    Result r = launcher("--help");
    assertThat(r.code).as(r.err).isZero();
    for (String command : COMMANDS) {
      assertThat(r.out).as(r.out).containsPattern("(?m)^  " + command + " +\\S");
    }
    assertThat(COMMANDS).contains("jvms", "vmapp", "metric", "completion", "search", "export", "help");
    assertThat(r.out).contains("durations: 500ms, 8s, 1.5m, 2h");
    // the exit codes once, those of both jars
    assertThat(r.out.split("Exit codes:", -1)).hasSize(2);
    assertThat(r.out).contains("  2   a usage error");
    assertThat(launcher().code).isEqualTo(2);
  }

  @Test
  void everyCommandAnswersHelpWithItsOwnUsageFromItsOwnJar() throws Exception {
    for (String command : COMMANDS.stream().filter(c -> !c.equals("help")).toList()) {
      Result r = launcher(command, "--help");
      assertThat(r.code).as(command + ": " + r.err).isZero();
      assertThat(r.out).as(command).startsWith("Usage: bottlenose " + command + " ");
    }
    Result help = launcher("help", "search");
    assertThat(help.out).startsWith("Usage: bottlenose search ");
    Result version = launcher("--version");
    assertThat(version.code).isZero();
    assertThat(version.out).startsWith("bottlenose ").doesNotContain("unknown");
  }

  @Test
  void aBadOptionPrintsThatCommandsUsageWithExit2() throws Exception {
    Result demo = launcher("demo", "--for", "8s");
    assertThat(demo.code).isEqualTo(2);
    assertThat(demo.err).contains("'--for'").contains("Usage: bottlenose demo ").doesNotContain("Usage: bottlenose measure");
    Result resources = launcher("resources", "--pid=x");
    assertThat(resources.code).isEqualTo(2);
    assertThat(resources.err).contains("--pid").contains("'x'").contains("Usage: bottlenose resources ");
  }

  @Test
  void bothJarsStartFromTheClassArchivesTheBuildMadeAndAnotherJdkIgnoresThemQuietly() throws Exception {
    for (String module : List.of("daemon", "web")) {
      Path jar = Path.of(System.getProperty("bottlenose." + module + ".jar")).toAbsolutePath().normalize();
      List<String> archive = ClassArchive.jvmOptions(jar);
      assertThat(archive).as(module + ": no archive beside " + jar).isNotEmpty();
      List<String> mapped = new ArrayList<>(List.of(java(System.getProperty("java.home"))));
      mapped.addAll(archive);
      mapped.addAll(List.of("-Xlog:class+load=info", "-jar", jar.toString(), "--version"));
      Result r = run(mapped);
      assertThat(r.code).as(r.err).isZero();
      assertThat(r.out).as(module).containsPattern("dev\\.bottlenose\\.cli\\.Cli source: shared objects file \\(top\\)");
      List<String> other = new ArrayList<>(List.of(java(System.getProperty("bottlenose.jdk25.home"))));
      other.addAll(archive);
      other.addAll(List.of("-jar", jar.toString(), "--version"));
      Result ignored = run(other);
      assertThat(ignored.code).as(ignored.err).isZero();
      assertThat(ignored.out).as(module + " on JDK 25").matches("bottlenose \\S+\\R");
      assertThat(ignored.err).as(module + " on JDK 25").isEmpty();
    }
  }

  private static String java(String home) {
    return Path.of(home, "bin", "java").toString();
  }

  private record Result(int code, String out, String err) {}

  private Result launcher(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of("..", "bottlenose").toAbsolutePath().normalize().toString()));
    cmd.addAll(List.of(args));
    return run(cmd);
  }

  private Result run(List<String> cmd) throws IOException, InterruptedException {
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Process p = pb.start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
