package dev.bottlenose.web.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.cli.Cli;
import dev.bottlenose.cli.Version;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The service's command line: help and version of every command, how options are read, usage errors. */
class MainTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    out.reset();
    err.reset();
    return Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private static SearchCommand search(String... words) {
    SearchCommand search = new SearchCommand();
    Cli.commandLine(search, System.out, System.err).parseArgs(words);
    return search;
  }

  /** Every command and sub-command of the jar (hidden ones too), as the words after {@code bottlenose}. */
  private static List<String> commands(CommandLine command) {
    List<String> commands = new ArrayList<>();
    for (CommandLine sub : new LinkedHashSet<>(command.getSubcommands().values())) {
      commands.add(sub.getCommandSpec().qualifiedName().substring("bottlenose ".length()));
      commands.addAll(commands(sub));
    }
    return commands;
  }

  @Test
  void everyCommandAnswersHelpWithItsOwnUsageAndVersion() {
    assertThat(run("--help")).isZero();
    assertThat(out()).startsWith("Usage: bottlenose").contains("  search ", "  serve ", "  demo ", "  export ");
    assertThat(run("help")).isZero();
    assertThat(run()).isEqualTo(2);
    assertThat(out()).startsWith("Usage: bottlenose");
    List<String> commands = commands(Main.commandLine());
    assertThat(commands).contains("search", "serve", "demo", "export", "help");
    for (String command : commands) {
      assertThat(run((command + " --help").split(" "))).as(command + ": " + err()).isZero();
      // picocli's help command has a header before its usage
      assertThat(out()).as(command).containsPattern((command.equals("help") ? "(?m)^" : "\\A") + "Usage: bottlenose "
          + command + " ").contains("-h, --help", "-V, --version")
          .contains("Exit codes:", "  0   done", "  1   a runtime failure", "  2   a usage error");
      assertThat(out().contains("  3   ")).as(command).isEqualTo(command.equals("search"));
      assertThat(run((command + " --version").split(" "))).as(command + ": " + err()).isZero();
      assertThat(out()).as(command).isEqualTo("bottlenose " + Version.number() + System.lineSeparator());
    }
    assertThat(run("search", "--help")).isZero();
    assertThat(out()).containsPattern("(?m)^  3   .*--fail-on");
    assertThat(run("serve", "--help")).isZero();
    assertThat(out()).doesNotContain("--token ").contains("--token-file=FILE");
  }

  @Test
  void optionsAreReadWithOrWithoutAnEqualsSign() {
    SearchCommand a = search("--pid", "12", "--pid=13", "--budget", "5%", "--max-time=1.5m", "--json");
    assertThat(a.pids).containsExactly(12L, 13L);
    assertThat(SearchCommand.budget(a.budget, 0.1)).isEqualTo(0.05);
    assertThat(a.maxTime).isEqualTo(Duration.ofSeconds(90));
    assertThat(a.json).isTrue();
    assertThat(SearchCommand.budget(search("--budget=0.2").budget, 0.1)).isEqualTo(0.2);
  }

  @Test
  void badValuesAreUsageErrorsNamingThem() {
    assertThatThrownBy(() -> SearchCommand.budget("80%", 0.05)).hasMessageContaining("--budget 80% is outside (0, 50%]");
    assertThatThrownBy(() -> SearchCommand.budget("lots", 0.05)).hasMessageContaining("--budget 'lots' is not a share of CPU");
    assertThatThrownBy(() -> search("--set", "cpu_bound.threshold=high").options("s1"))
        .hasMessageContaining("cpu_bound.threshold must be a number");
    assertThatThrownBy(() -> search("--set=nokey").options("s1")).hasMessageContaining("--set 'nokey' is not key=value");
    assertThat(search("--set", "cpu_bound.threshold = 0.3", "--set=search.skip=io_wait").options("s1").settings()
        .text("search.skip")).isEqualTo("io_wait");
    assertThatThrownBy(() -> search("--skip", "lunch").options("s1")).hasMessageContaining("unknown hypothesis 'lunch'");
    assertThatThrownBy(() -> search("--max-time", "500ms").options("s1")).hasMessageContaining("--max-time 500ms is outside 1s .. 24h");
    assertThat(search("--skip", "io_wait", "--skip", "sync_wait").options("s1").settings().text("search.skip"))
        .isEqualTo("io_wait,sync_wait");
    assertThatThrownBy(() -> search("--fail-on", "cpu_bound,slowness").options("s1"))
        .hasMessageContaining("--fail-on slowness: no such hypothesis; write 'any' or one of ").hasMessageContaining("sync_wait");
    assertThat(search("--fail-on", "cpu_bound,sync_wait", "--fail-on=any").failOn).containsExactly("cpu_bound", "sync_wait", "any");
  }

  @Test
  void aBadOptionPrintsThatCommandsUsageAndExits2() {
    assertThat(run("search", "--colour", "red")).isEqualTo(2);
    assertThat(err()).startsWith("bottlenose search: Unknown options: '--colour', 'red'").contains("Usage: bottlenose search ")
        .doesNotContain("Usage: bottlenose demo");
    assertThat(run("search", "--max-time", "60")).isEqualTo(2);
    assertThat(err()).contains("--max-time").contains("bad duration '60'").contains("Usage: bottlenose search ");
    assertThat(run("search", "--pid", "x")).isEqualTo(2);
    assertThat(err()).contains("--pid").contains("'x' is not a process id");
    assertThat(run("search", "--json=yes")).isEqualTo(2);
    assertThat(run("search", "--pid")).isEqualTo(2);
    assertThat(err()).contains("--pid");
    assertThat(run("demo", "--for", "8s")).isEqualTo(2);
    assertThat(err()).contains("'--for'").contains("Usage: bottlenose demo ").doesNotContain("Usage: bottlenose search");
    assertThat(run("serve", "--port=70000")).isEqualTo(2);
    assertThat(err()).contains("--port 70000 is not in 0..65535").contains("Usage: bottlenose serve ");
  }

  @Test
  void usageErrorsExitWithTwoAndSayWhy() {
    assertThat(run("search", "--budget", "5%")).isEqualTo(2);
    assertThat(err()).contains("bottlenose search: give the JVM to search with --pid N");
    assertThat(run("frobnicate")).isEqualTo(2);
    assertThat(run("serve", "--token", "s3cret-s3cret-s3cret")).isEqualTo(2);
    assertThat(err()).contains("bottlenose serve: --token is refused")
        .contains("/proc/PID/cmdline").contains("--token-file FILE").contains("BOTTLENOSE_WEB_TOKEN");
  }

  @Test
  void aTargetThatIsNoJvmOrNoProcessIsRefusedBeforeJoiningAnything() throws Exception {
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    assertThat(run("search", "--pid", Long.toString(ended.pid()), "--max-time", "5s")).isEqualTo(2);
    assertThat(err()).contains("no process with pid " + ended.pid()).doesNotContain("joining the cluster");
    Process sleeper = new ProcessBuilder("sleep", "30").start();
    try {
      assertThat(run("search", "--pid", Long.toString(sleeper.pid()))).isEqualTo(2);
      assertThat(err()).contains("process " + sleeper.pid()).contains("is not a JVM").doesNotContain("joining the cluster");
    } finally {
      sleeper.destroyForcibly();
    }
  }
}
