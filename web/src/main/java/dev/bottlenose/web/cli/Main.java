package dev.bottlenose.web.cli;

import dev.bottlenose.cli.Cli;
import dev.bottlenose.cli.ExitCodes;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The service's command line: {@code search}, {@code serve}, {@code demo}, {@code export} (picocli, run by
 * {@link Cli}): exit codes 0 ok, 1 runtime failure, 2 usage error; every command answers {@code --help} and
 * {@code --version}.
 */
@Command(name = "bottlenose", description = "Search running JVMs for bottlenecks; serve the web UI and REST API.",
    subcommands = {SearchCommand.class, ServeCommand.class, DemoCommand.class, ExportCommand.class,
        ClassArchiveTraining.class, HelpCommand.class},
    footer = {"saved searches go to ./data/searches unless --data DIR; members are admitted by the cluster secret"
        + " (~/.bottlenose/cluster.secret, or BOTTLENOSE_CLUSTER_SECRET); durations: 500ms, 8s, 1.5m, 2h"})
public final class Main implements Callable<Integer> {
  final PrintStream out;
  final PrintStream err;

  @Spec
  CommandSpec spec;

  private Main(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) {
    System.exit(run(List.of(args), System.out, System.err));
  }

  /** The configured command line, as {@link #main} runs it: what {@link dev.bottlenose.cli.Completion} completes. */
  public static CommandLine commandLine() {
    return Cli.commandLine(new Main(System.out, System.err), System.out, System.err);
  }

  static int run(List<String> args, PrintStream out, PrintStream err) {
    return Cli.run(new Main(out, err), args.toArray(String[]::new), out, err);
  }

  /** No command: the usage, exit 2. */
  @Override
  public Integer call() {
    spec.commandLine().usage(out);
    return ExitCodes.USAGE;
  }
}
