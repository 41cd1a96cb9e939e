package dev.bottlenose.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** One completion script from two jars' command lines, each of whose commands knows only its own root. */
class CompletionTest {
  @TempDir
  Path dir;

  @Command(name = "bottlenose", subcommands = {Jvms.class, Completion.class, HelpCommand.class})
  static final class DaemonRoot implements Callable<Integer> {
    @Override
    public Integer call() {
      return ExitCodes.USAGE;
    }
  }

  @Command(name = "jvms")
  static final class Jvms implements Callable<Integer> {
    @ParentCommand DaemonRoot root;
    @Option(names = "--json") boolean json;

    @Override
    public Integer call() {
      return ExitCodes.OK;
    }
  }

  @Command(name = "bottlenose", subcommands = {Export.class, Training.class, HelpCommand.class})
  static final class WebRoot implements Callable<Integer> {
    @Override
    public Integer call() {
      return ExitCodes.USAGE;
    }
  }

  static final class Formats implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return List.of("json", "svg").iterator();
    }
  }

  @Command(name = "export")
  static final class Export implements Callable<Integer> {
    @ParentCommand WebRoot root;
    @Option(names = "--format", completionCandidates = Formats.class) String format;

    @Override
    public Integer call() {
      return ExitCodes.OK;
    }
  }

  @Command(name = ClassArchive.TRAINING_COMMAND, hidden = true)
  static final class Training implements Callable<Integer> {
    @Override
    public Integer call() {
      return ExitCodes.OK;
    }
  }

  private static CommandLine commandLine(Object root) {
    PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    return Cli.commandLine(root, out, out);
  }

  @Test
  void theScriptHasTheCommandsOfBothJarsTheirOptionsAndTheirValues() {
    String script = Completion.script(List.of(commandLine(new DaemonRoot()), commandLine(new WebRoot())));
    assertThat(script).contains("local commands=\"jvms completion help export\"")
        .contains("'--json'", "'--format'", "(\"json\" \"svg\")", "'--verbose'")
        .contains("complete -F _complete_bottlenose")
        .doesNotContain(ClassArchive.TRAINING_COMMAND);
  }

  @Test
  void theCommandPrintsTheScriptTheLauncherNames() throws Exception {
    Path script = Files.writeString(dir.resolve("bottlenose"), "complete -F _complete_bottlenose bottlenose\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setProperty(Completion.SCRIPT_PROPERTY, script.toString());
    try {
      int code = Cli.run(new DaemonRoot(), new String[] {"completion"}, stream(out), stream(err));
      assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
      assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(Files.readString(script));
    } finally {
      System.clearProperty(Completion.SCRIPT_PROPERTY);
    }
    // a stream of its own for each run: Logging closes the one of the run before
    int code = Cli.run(new DaemonRoot(), new String[] {"completion"}, stream(out), stream(err));
    assertThat(code).isEqualTo(ExitCodes.FAILED);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("bottlenose completion: no script to print");
  }

  private static PrintStream stream(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }
}
