package dev.bottlenose.daemon.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

/** The {@code bottlenose} command line. Exit codes: 0 ok, 1 runtime failure, 2 usage error. */
public final class Main {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;

  static final String USAGE_TEXT = String.join(System.lineSeparator(),
      "usage: bottlenose <command> [options]",
      "  jvms                                         list local JVMs (pid, Java version, user, main class)",
      "  daemon --pid N [--interval 1s]               attach, join the cluster, serve until Ctrl-C or exit",
      "  daemon [--interval 1s] -- java ...           launch with the agent, join the cluster, serve",
      "         [--id ID] [--heartbeat 10s] [--linger 10s] [--cluster-host H] [--cluster-port P]",
      "         [--held-by NODE]         (stop when that member, and any other holder, lets go or leaves)",
      "         [--members h1,h2:5702]   (every member needs the same cluster secret: ~/.bottlenose/cluster.secret",
      "                                  or BOTTLENOSE_CLUSTER_SECRET)",
      "  resources --pid N [PATH] [--depth D]         print a hierarchy or a subtree (PATH default /)",
      "  measure --pid N --probe KIND --focus FOCUS [--for 10s] [--interval 1s] [--callee METHOD]",
      "                                               insert a probe, print values, remove it",
      "  measure --pid N --metric NAME --focus FOCUS [--metrics FILE] [--for 10s] [--interval 1s]",
      "                                               measure a metric (built-in or from FILE), print its value",
      "                                               and measured cost every interval, remove everything",
      "  metric check FILE                            check a metric file: FILE:line:column: message per error",
      "  metric list [--file FILE]                    built-in metrics (and FILE's): name, unit, description",
      "  ledger --pid N                               probes woven into the target",
      "probe kinds: call_count, wall_inclusive, wall_exclusive, call_site, allocation, monitor",
      "metrics: bottlenose metric list; the language: metrics-dsl/README.md, built-ins: metrics-dsl/docs/metrics.md",
      "durations: 500ms, 10s, 2m; focus: /Code/<package>/<Class>/<method>[descriptor] or </Code/...>, <> the whole program");

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(Arrays.asList(args), new Console(System.out, System.err)));
  }

  static int run(List<String> args, Console console) {
    if (args.isEmpty() || Set.of("help", "--help", "-h").contains(args.get(0))) {
      console.out().println(USAGE_TEXT);
      return args.isEmpty() ? USAGE : OK;
    }
    String command = args.get(0);
    List<String> rest = args.subList(1, args.size());
    try {
      return dispatch(command, rest, console);
    } catch (UsageException e) {
      console.err().println("bottlenose " + command + ": " + e.getMessage());
      console.err().println(USAGE_TEXT);
      return USAGE;
    } catch (Exception e) {
      console.err().println("bottlenose " + command + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
      return FAILED;
    }
  }

  private static int dispatch(String command, List<String> words, Console console) throws Exception {
    switch (command) {
      case "jvms":
        return JvmsCommand.run(Args.parse(command, words, Set.of()), console);
      case "daemon":
        return DaemonCommand.run(Args.withCommandLine(command, words, DaemonCommand.OPTIONS), console);
      case "resources":
        return ResourcesCommand.run(Args.parse(command, words, Targets.with("depth")), console);
      case "measure":
        return MeasureCommand.run(Args.parse(command, words, Targets.MEASURE_OPTIONS), console);
      case "metric":
        return MetricCommand.run(Args.parse(command, words, MetricCommand.OPTIONS), console);
      case "ledger":
        return LedgerCommand.run(Args.parse(command, words, Targets.SESSION_OPTIONS), console);
      default:
        throw new UsageException("unknown command '" + command + "'");
    }
  }
}
