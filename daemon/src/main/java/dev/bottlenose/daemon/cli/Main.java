package dev.bottlenose.daemon.cli;

import dev.bottlenose.cli.Cli;
import dev.bottlenose.cli.Completion;
import dev.bottlenose.cli.ExitCodes;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The daemon jar's {@code bottlenose} command line (picocli, run by {@link Cli}): exit codes 0 ok, 1 runtime
 * failure, 2 usage error; every command answers {@code --help} and {@code --version}.
 */
@Command(name = "bottlenose", description = "Attach to JVMs, look at their resources, measure them, serve them to searches.",
    subcommands = {JvmsCommand.class, DaemonCommand.class, ResourcesCommand.class, MeasureCommand.class,
        MetricCommand.class, VmAppCommand.class, LedgerCommand.class, Completion.class, ClassArchiveTraining.class, HelpCommand.class},
    footer = {"probe kinds: call_count, wall_inclusive, wall_exclusive, call_site, allocation, monitor",
        "metrics: bottlenose metric list; the language: metrics-dsl/README.md, built-ins: metrics-dsl/docs/metrics.md",
        "durations: 500ms, 8s, 1.5m, 2h; focus: com.acme.Cache::get, com.acme.Cache.get(Object), a class, a package,",
        "or /Code/<package>/<Class>/<method>[descriptor], </Code/...>, <> the whole program"})
public final class Main implements Callable<Integer> {
  final Console console;

  @Spec
  CommandSpec spec;

  private Main(Console console) {
    this.console = console;
  }

  public static void main(String[] args) {
    System.exit(run(List.of(args), new Console(System.out, System.err)));
  }

  /** The configured command line, as {@link #main} runs it: what {@link Completion} completes. */
  public static CommandLine commandLine() {
    return Cli.commandLine(new Main(new Console(System.out, System.err)), System.out, System.err);
  }

  static int run(List<String> args, Console console) {
    return Cli.run(new Main(console), args.toArray(String[]::new), console.out(), console.err());
  }

  /** No command: the usage, exit 2. */
  @Override
  public Integer call() {
    spec.commandLine().usage(console.out());
    return ExitCodes.USAGE;
  }
}
