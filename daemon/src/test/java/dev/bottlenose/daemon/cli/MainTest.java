package dev.bottlenose.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.cli.Version;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MainTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(List.of(args), new Console(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void noArgumentsPrintsUsageAndExits2() {
    assertThat(run()).isEqualTo(2);
    assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("Usage: bottlenose");
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Every command and sub-command of the jar (hidden ones too), as the words after {@code bottlenose}. */
  static List<String> commands(CommandLine command) {
    List<String> commands = new ArrayList<>();
    for (CommandLine sub : new LinkedHashSet<>(command.getSubcommands().values())) {
      commands.add(sub.getCommandSpec().qualifiedName().substring("bottlenose ".length()));
      commands.addAll(commands(sub));
    }
    return commands;
  }

  private static final List<String> COMMANDS = commands(Main.commandLine());

  @Test
  void helpExits0() {
    assertThat(run("--help")).isZero();
    assertThat(out()).contains("Usage: bottlenose").contains("Commands:");
    Main.commandLine().getSubcommands().values().stream().filter(c -> !c.getCommandSpec().usageMessage().hidden())
        .forEach(c -> assertThat(out()).contains("  " + c.getCommandName() + " "));
    out.reset();
    assertThat(run("help")).isZero();
    assertThat(out()).contains("Usage: bottlenose");
  }

  @Test
  void everyCommandAnswersHelpWithItsOwnUsageAndVersion() {
    assertThat(COMMANDS).contains("jvms", "daemon", "resources", "measure", "metric", "metric check", "metric list",
        "vmapp", "ledger", "completion", "help");
    for (String command : COMMANDS) {
      out.reset();
      List<String> words = new ArrayList<>(List.of(command.split(" ")));
      words.add("--help");
      assertThat(run(words.toArray(String[]::new))).as(command + ": " + err()).isZero();
      // picocli's help command has a header before its usage
      assertThat(out()).as(command).containsPattern((command.equals("help") ? "(?m)^" : "\\A") + "Usage: bottlenose "
          + command + " ").contains("-h, --help", "-V, --version")
          .contains("Exit codes:", "  0   done", "  1   a runtime failure", "  2   a usage error").doesNotContain("  3   ");
      out.reset();
      words.set(words.size() - 1, "--version");
      assertThat(run(words.toArray(String[]::new))).as(command + ": " + err()).isZero();
      assertThat(out()).as(command).isEqualTo("bottlenose " + Version.number() + System.lineSeparator());
    }
    out.reset();
    assertThat(run("help", "measure")).isZero();
    assertThat(out()).startsWith("Usage: bottlenose measure ").contains("--focus=FOCUS").contains("--for=DURATION");
  }

  @Test
  void optionsTakeTheirValueAfterAnEqualsSignToo() {
    assertThat(run("resources", "--pid=2147483000", "--depth=2")).isEqualTo(1);
    assertThat(err()).contains("cannot attach to process 2147483000");
    assertThat(run("ledger", "--pid", "2147483001", "--interval=500ms")).isEqualTo(1);
    assertThat(err()).contains("cannot attach to process 2147483001");
  }

  @Test
  void aBadOptionPrintsThatCommandsUsage() {
    assertThat(run("resources", "--pdi", "1")).isEqualTo(2);
    assertThat(err()).startsWith("bottlenose resources: Unknown option: '--pdi'").contains("Usage: bottlenose resources ")
        .doesNotContain("Usage: bottlenose measure");
    err.reset();
    assertThat(run("metric", "list", "--fiel", "x")).isEqualTo(2);
    assertThat(err()).contains("Usage: bottlenose metric list ");
    err.reset();
    assertThat(run("measure", "--pid", "1", "--probe", "call_count", "--focus", "/Code/a/B/c", "--for", "ten"))
        .isEqualTo(2);
    assertThat(err()).contains("--for").contains("bad duration 'ten'").contains("Usage: bottlenose measure ");
    err.reset();
    assertThat(run("ledger", "--pid", "1", "--pid", "2")).isEqualTo(2);
    assertThat(err()).contains("--pid").contains("Usage: bottlenose ledger ");
  }

  @Test
  void usageErrorsExit2AndSayWhatIsWrong() {
    assertThat(run("frobnicate")).isEqualTo(2);
    assertThat(err()).contains("frobnicate").contains("Usage: bottlenose [");
    assertThat(run("measure", "--pid", "1", "--focus", "/Code/a/B/c")).isEqualTo(2);
    assertThat(err()).contains("'measure' needs --probe");
    assertThat(run("resources", "--pid", "x")).isEqualTo(2);
    assertThat(err()).contains("'x' is not a process id");
    assertThat(run("ledger")).isEqualTo(2);
    assertThat(err()).contains("'ledger' needs --pid");
    assertThat(run("ledger", "surprise")).isEqualTo(2);
    assertThat(err()).contains("surprise");
    assertThat(run("jvms", "--", "java")).isEqualTo(2);
    assertThat(run("daemon", "java", "Main")).isEqualTo(2);
    assertThat(err()).contains("'daemon' got unexpected argument 'java'");
    assertThat(run("measure", "--pid", "1", "--probe", "call_count", "--focus", "/Code/a/B/c", "--for", "ten"))
        .isEqualTo(2);
    assertThat(run("measure", "--pid", "1", "--probe", "call_count", "--focus", "/Code/a/B/c", "--interval", "10ms"))
        .isEqualTo(2);
    assertThat(err()).contains("interval 10 ms is outside 50 ms .. 1 h");
    assertThat(run("ledger", "--pid", "1", "--heartbeat", "100ms")).isEqualTo(2);
    assertThat(err()).contains("heartbeat 100 ms is outside 300 ms .. 1 h");
    assertThat(run("daemon", "--pid", "1", "--id", "a.b")).isEqualTo(2);
    assertThat(err()).contains("--id 'a.b' may only use letters, digits, '-' and '_'");
    assertThat(run("daemon")).isEqualTo(2);
    assertThat(err()).contains("'daemon' needs --pid N, or -- followed by a java command line");
    assertThat(run("daemon", "--pid", "1", "--", "java", "Main")).isEqualTo(2);
    assertThat(run("daemon", "--pid", "1", "--cluster-host", "8.8.8.8")).isEqualTo(2);
    assertThat(err()).contains("cluster host 8.8.8.8 is not an address of this machine");
  }

  @Test
  void anUnknownPidIsARuntimeFailureNamingThePid() {
    assertThat(run("ledger", "--pid", "2147483000")).isEqualTo(1);
    assertThat(err()).contains("cannot attach to process 2147483000: no process with pid 2147483000");
  }

  @Test
  void aProcessThatIsNoJvmIsARuntimeFailure() throws Exception {
    Process sleep = new ProcessBuilder("sleep", "30").start();
    try {
      assertThat(run("resources", "--pid", Long.toString(sleep.pid()))).isEqualTo(1);
      assertThat(err()).contains("process " + sleep.pid() + " (sleep) is not a Java virtual machine");
    } finally {
      sleep.destroyForcibly().waitFor();
    }
  }
}
