package dev.bottlenose.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** A two-level command run the way both jars' mains run theirs: help, version, exit codes, the usage printed. */
class CliTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @Command(name = "bottlenose", subcommands = {Wait.class, Find.class})
  static final class Root implements Callable<Integer> {
    @Override
    public Integer call() {
      return ExitCodes.USAGE;
    }
  }

  @Command(name = "wait", description = "waits a while")
  static final class Wait implements Callable<Integer> {
    @Option(names = "--for", description = "how long") Duration length = Duration.ofSeconds(1);
    @Option(names = "--pid", converter = ProcessIds.class) Long pid;
    @Option(names = "--fail") String failure;
    @Option(names = "--refuse") String refusal;

    @Override
    public Integer call() {
      if (failure != null) {
        throw new IllegalStateException(failure);
      }
      if (refusal != null) {
        throw new UsageException("--refuse " + refusal + ": no");
      }
      System.setProperty("cli-test.waited", length.toMillis() + "ms pid " + pid);
      return ExitCodes.OK;
    }
  }

  @Command(name = "find", description = "finds something", exitCodeList = ExitCodes.FOUND + ":it found something")
  static final class Find implements Callable<Integer> {
    @Override
    public Integer call() {
      return ExitCodes.FOUND;
    }
  }

  private int run(String... args) {
    out.reset();
    err.reset();
    return Cli.run(new Root(), args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void everyCommandHasHelpAndVersion() {
    assertThat(run("--help")).isEqualTo(ExitCodes.OK);
    assertThat(out()).contains("Usage: bottlenose").contains("wait");
    assertThat(run("wait", "--help")).isEqualTo(ExitCodes.OK);
    assertThat(out()).contains("Usage: bottlenose wait").contains("--for").contains("-V, --version");
    assertThat(run("wait", "--version")).isEqualTo(ExitCodes.OK);
    assertThat(out().strip()).isEqualTo("bottlenose " + Version.number()).doesNotContain("unknown");
  }

  @Test
  void optionsTakeTheirValueEitherWayAndDurationsReadTheOneSyntax() {
    assertThat(run("wait", "--for=1.5m", "--pid", "7")).isEqualTo(ExitCodes.OK);
    assertThat(System.getProperty("cli-test.waited")).isEqualTo("90000ms pid 7");
    assertThat(run("wait", "--for", "500ms", "--pid=8")).isEqualTo(ExitCodes.OK);
    assertThat(System.getProperty("cli-test.waited")).isEqualTo("500ms pid 8");
  }

  @Test
  void aUsageErrorPrintsThatCommandsUsageAndExits2() {
    assertThat(run("wait", "--for", "ten")).isEqualTo(ExitCodes.USAGE);
    assertThat(err()).startsWith("bottlenose wait: ").contains("--for").contains("bad duration 'ten'")
        .contains("Usage: bottlenose wait");
    assertThat(run("wait", "--pid=x")).isEqualTo(ExitCodes.USAGE);
    assertThat(err()).contains("'x' is not a process id");
    assertThat(run("wait", "--colour", "red")).isEqualTo(ExitCodes.USAGE);
    assertThat(err()).contains("--colour").contains("Usage: bottlenose wait");
    assertThat(run("wait", "--refuse", "this")).isEqualTo(ExitCodes.USAGE);
    assertThat(err()).startsWith("bottlenose wait: --refuse this: no").contains("Usage: bottlenose wait");
    assertThat(run("frobnicate")).isEqualTo(ExitCodes.USAGE);
    assertThat(err()).contains("frobnicate").contains("Usage: bottlenose [");
  }

  @Test
  void aRuntimeFailureExits1WithItsMessage() {
    assertThat(run("wait", "--fail", "the target left")).isEqualTo(ExitCodes.FAILED);
    assertThat(err().strip()).isEqualTo("bottlenose wait: the target left");
  }

  @Test
  void theExitCodesAreTheDocumentedOnes() {
    assertThat(new int[] {ExitCodes.OK, ExitCodes.FAILED, ExitCodes.USAGE, ExitCodes.FOUND}).containsExactly(0, 1, 2, 3);
  }

  @Test
  void everyCommandsHelpListsTheExitCodesAndThoseItDeclaresToo() {
    String standard = "Exit codes:\n  0   done\n  1   a runtime failure (its message on stderr)\n"
        + "  2   a usage error (the command line is wrong; its usage on stderr)\n";
    for (String command : new String[] {"", "wait", "find"}) {
      assertThat(command.isEmpty() ? run("--help") : run(command, "--help")).isEqualTo(ExitCodes.OK);
      assertThat(out().replace(System.lineSeparator(), "\n")).as(command).contains(standard);
    }
    assertThat(out().replace(System.lineSeparator(), "\n")).endsWith(standard + "  3   it found something\n");
    assertThat(run("wait", "--help")).isEqualTo(ExitCodes.OK);
    assertThat(out()).doesNotContain("  3 ");
    assertThat(run("find")).isEqualTo(ExitCodes.FOUND);
  }
}
