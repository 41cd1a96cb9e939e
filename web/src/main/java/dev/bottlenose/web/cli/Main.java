package dev.bottlenose.web.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/** The service's command line: {@code search}, {@code serve}, {@code demo}. Exit codes: 0 ok, 1 runtime failure, 2 usage error. */
public final class Main {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;

  static final String USAGE_TEXT = String.join(System.lineSeparator(),
      "usage: bottlenose <command> [options]",
      "  search --pid N [--pid M] [--budget 5%] [--max-time 60s] [--skip io_wait] [--json] [--data DIR] [--set key=value]",
      "         [--rules DIR] [--metrics FILE]",
      "                                               run a bottleneck search on running JVMs (daemons are started",
      "                                               for them), print progress, the search-history graph and the",
      "                                               bottlenecks; --json prints the saved search instead; --rules",
      "                                               adds your hypotheses (*.drl, *.properties: hypothesis.<id>.*)",
      "                                               and metrics (*.metrics), --metrics FILE a metric file",
      "  serve [--host 127.0.0.1] [--port 8411] [--token-file FILE] [--attach-any-user] [--data DIR]",
      "                                               the web UI and REST API (web/API.md) until Ctrl-C; the token",
      "                                               comes from --token-file or BOTTLENOSE_WEB_TOKEN (never from the",
      "                                               command line); a host other than loopback without one gets one",
      "                                               made in ~/.bottlenose/web.token; open the printed address",
      "                                               (http://host:port/#token=...) once; it attaches only to JVMs",
      "                                               of its own user unless --attach-any-user",
      "  demo [--port 8411] [--exit-when-done] [--max-time 90s] [--data DIR] [--set key=value]",
      "                                               serve the web UI, run the bundled workload, search it, print",
      "                                               what it found; then serve until Ctrl-C",
      "saved searches go to ./data/searches unless --data DIR; members are admitted by the cluster secret (~/.bottlenose/cluster.secret, or BOTTLENOSE_CLUSTER_SECRET)");

  private Main() {}

  public static void main(String[] args) {
    int code = run(Arrays.asList(args), System.out, System.err);
    System.exit(code);
  }

  static int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.isEmpty() || Set.of("help", "--help", "-h").contains(args.get(0))) {
      out.println(USAGE_TEXT);
      return args.isEmpty() ? USAGE : OK;
    }
    String command = args.get(0);
    List<String> rest = args.subList(1, args.size());
    try {
      return switch (command) {
        case "search" -> SearchCommand.run(Args.parse(command, rest, SearchCommand.VALUED, SearchCommand.FLAGS), out, err);
        case "serve" -> ServeCommand.run(Args.parse(command, rest, ServeCommand.VALUED, ServeCommand.FLAGS), out, err);
        case "demo" -> DemoCommand.run(Args.parse(command, rest, DemoCommand.VALUED, DemoCommand.FLAGS), out, err);
        default -> throw new UsageException("unknown command '" + command + "'");
      };
    } catch (UsageException e) {
      err.println("bottlenose " + command + ": " + e.getMessage());
      err.println(USAGE_TEXT);
      return USAGE;
    } catch (Exception e) {
      Throwable cause = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null ? e.getCause() : e;
      err.println("bottlenose " + command + ": " + (cause.getMessage() == null ? cause.toString() : cause.getMessage()));
      return FAILED;
    }
  }
}
