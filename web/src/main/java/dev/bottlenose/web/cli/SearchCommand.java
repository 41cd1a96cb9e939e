package dev.bottlenose.web.cli;

import dev.bottlenose.consultant.Findings;
import dev.bottlenose.consultant.Hypothesis;
import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.SearchOptions;
import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.consultant.rules.RuleBook;
import dev.bottlenose.metrics.Diagnostics;
import dev.bottlenose.metrics.DslError;
import dev.bottlenose.metrics.MetricLibrary;
import dev.bottlenose.model.json.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.Callable;
import dev.bottlenose.cli.Durations;
import dev.bottlenose.cli.ExitCodes;
import dev.bottlenose.cli.ProcessIds;
import dev.bottlenose.cli.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code search}: a daemon per pid (reused when one runs, else served from this process), one search over them with the budget and time
 * limit, progress on stderr, then the search-history graph as a tree and the findings (or, with
 * {@code --json}, the saved search) on stdout. Ctrl-C stops the search, which is saved all the same.
 */
@Command(name = "search", description = {
    "run a bottleneck search on running JVMs (daemons are started for them)",
    "print progress, the search-history graph and the findings; --json prints the saved search instead; --rules"
        + " adds your hypotheses (*.drl, *.properties: hypothesis.<id>.*) and metrics (*.metrics), --metrics FILE a"
        + " metric file"},
    exitCodeList = ExitCodes.FOUND + ":the search completed with a finding --fail-on names")
final class SearchCommand implements Callable<Integer> {
  private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
  static final Duration MIN_MAX_TIME = Duration.ofSeconds(1);

  @ParentCommand
  Main main;

  @Option(names = "--pid", paramLabel = "N", converter = ProcessIds.class,
      description = "a JVM to search (repeat for several; 'bottlenose jvms' lists them)")
  List<Long> pids = new ArrayList<>();

  @Option(names = "--budget", paramLabel = "SHARE", description = "the share of the target's CPU the search may"
      + " take, e.g. 5%% or 0.05 (default: 5%%)")
  String budget;

  @Option(names = "--max-time", paramLabel = "DURATION", description = "the longest the search runs (default: 60s)")
  Duration maxTime = Duration.ofSeconds(60);

  @Option(names = "--skip", paramLabel = "HYPOTHESIS", description = "a hypothesis not to test (repeatable)")
  List<String> skip = new ArrayList<>();

  @Option(names = "--json", description = "print the saved search as JSON (with its findings) instead of the graph and the findings")
  boolean json;

  @Mixin
  DataOption data;

  @Mixin
  SettingOptions settings;

  @Option(names = "--rules", paramLabel = "DIR", description = "your hypotheses (*.drl, *.properties) and metrics"
      + " (*.metrics)")
  String rules;

  @Option(names = "--fail-on", paramLabel = "HYPOTHESIS", split = ",", description = "end with exit code 3 when a"
      + " finding is of this hypothesis (repeatable or comma-separated; 'any': any finding), for a CI job to gate on")
  List<String> failOn = new ArrayList<>();

  @Option(names = "--metrics", paramLabel = "FILE", description = "a metric file to add to the daemons (repeatable)")
  List<String> metrics = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    PrintStream out = main.out;
    PrintStream err = main.err;
    List<Long> pids = new ArrayList<>(new LinkedHashSet<>(this.pids));
    if (pids.isEmpty()) {
      throw new UsageException("give the JVM to search with --pid N (several --pid for several JVMs; 'bottlenose jvms' lists them)");
    }
    SearchOptions options = options("s-" + LocalDateTime.now().format(ID_TIME) + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000)));
    Path data = this.data.directory();
    List<MetricFile> metricFiles = metricFiles(options.rulesDirectory());
    pids.forEach(TargetCheck::check);
    SearchRunner.prepareRules();
    try (Member member = Member.serve(err, pids)) {
      List<String> daemons = member.daemonsFor(pids, err);
      for (MetricFile f : metricFiles) {
        member.addMetrics(daemons, f.name(), f.text(), err);
      }
      SearchRunner runner;
      try (Progress progress = new Progress(member.vertx(), options.id(), HypothesisCatalog.of(options.settings()), err)) {
        runner = Member.await(member.vertx().executeBlocking(() -> SearchRunner.start(member.vertx(), daemons,
            options.with("web.daemons", String.join(",", daemons)), data, "bottlenose search"), false), 60, "starting the search");
        err.println("bottlenose: search " + options.id() + " on " + daemons + ", budget " + percent(runner) + " of the target's CPU, at most "
            + runner.search().settings().number("search.max_time_seconds") + " s");
        progress.follow(runner);
        Thread stopper = new Thread(() -> {
          runner.stop("interrupted (Ctrl-C)");
          try {
            Member.await(runner.saved(), 30, "saving the search");
          } catch (Exception e) {
            err.println("bottlenose: " + e.getMessage());
          }
          member.close();
        }, "bottlenose-search-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        Path saved = Member.await(runner.saved(), 24 * 3600, "the search");
        removeHook(stopper);
        err.println("bottlenose: saved " + saved);
        err.println("bottlenose: " + Progress.totalCost(commandCpuSeconds(), commandSeconds(), runner.search().spending()));
        if (runner.result() != null) {
          runner.result().recordings().forEach(r -> err.println(r.file() != null
              ? "bottlenose: kept " + r.daemon() + "'s JFR recording in " + saved.resolveSibling(r.file()) + " ("
                  + r.bytes() + " bytes; export --format jfr)"
              : "bottlenose: no JFR recording of " + r.daemon() + ": " + r.error()));
        }
      }
      print(runner, json, out);
      member.awaitOtherHolders(err);
      if (runner.daemonLost()) {
        err.println("bottlenose: the search did not finish: " + runner.search().endReason() + "; what it found so far is"
            + " saved");
        return ExitCodes.FAILED;
      }
      List<Findings.Finding> failing = failing(runner.search().findings(), failOn);
      if (!failing.isEmpty()) {
        err.println("bottlenose: --fail-on " + String.join(",", failOn) + ": " + failing.size() + " finding(s), the first "
            + failing.get(0).why() + " at " + failing.get(0).where() + " (exit " + ExitCodes.FOUND + ")");
        return ExitCodes.FOUND;
      }
    }
    return ExitCodes.OK;
  }

  /** This process's CPU time since it started, in seconds; -1 where the JVM cannot tell. */
  private static double commandCpuSeconds() {
    long nanos = dev.bottlenose.bus.OwnCpu.nanos();
    return nanos < 0 ? -1 : nanos / 1e9;
  }

  /** Seconds since this process started. */
  private static double commandSeconds() {
    return (System.currentTimeMillis() - java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime()) / 1000.0;
  }

  /** The findings {@code --fail-on} names: of one of its hypotheses, or every finding for {@code any}. */
  static List<Findings.Finding> failing(List<Findings.Finding> findings, List<String> failOn) {
    return findings.stream().filter(f -> failOn.contains("any") || failOn.contains(f.hypothesis())).toList();
  }

  SearchOptions options(String id) {
    SearchOptions options = SearchOptions.of(id).withBudget(budget(budget, 0.05)).withMaxTime(maxTime(maxTime));
    for (Map.Entry<String, String> setting : settings.settings().entrySet()) {
      options = options.with(setting.getKey(), setting.getValue());
    }
    if (!skip.isEmpty()) {
      options = options.with("search.skip", String.join(",", skip));
    }
    if (rules != null) {
      Path rules = Path.of(this.rules);
      if (!Files.isDirectory(rules)) {
        throw new UsageException("--rules " + rules + ": no such directory (it holds *.drl rules, *.properties"
            + " settings such as hypothesis.<id>.metric, and *.metrics files)");
      }
      options = options.withRulesDirectory(rules);
      try {
        RuleBook.load(rules);
      } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
        throw new UsageException("--rules " + rules + ": " + e.getMessage());
      }
    }
    try {
      List<String> unknown = HypothesisCatalog.unknownKeys(options.settings());
      if (!unknown.isEmpty()) {
        throw new UsageException("--set " + unknown.get(0) + ": no such setting (consultant/README.md, \"Settings and"
            + " defaults\", lists them; a hypothesis's threshold needs the hypothesis, built in or declared with"
            + " hypothesis.<id>.metric)");
      }
      HypothesisCatalog catalog = HypothesisCatalog.of(options.settings());
      List<String> known = new ArrayList<>(catalog.all().stream().map(Hypothesis::id).toList());
      String skipped = options.settings().text("search.skip");
      if (skipped != null && !skipped.isBlank()) {
        known.addAll(List.of(skipped.split("\\s*,\\s*")));
      }
      for (String h : failOn) {
        if (!h.equals("any") && !known.contains(h)) {
          throw new UsageException("--fail-on " + h + ": no such hypothesis; write 'any' or one of " + String.join(", ", known));
        }
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return options;
  }

  /** A metric file to add to the search's daemons before it starts. */
  record MetricFile(String name, String text) {}

  /** The files of {@code --metrics FILE} (repeatable), then the {@code *.metrics} files of the rules directory. */
  List<MetricFile> metricFiles(Path rulesDirectory) {
    List<Path> paths = new ArrayList<>();
    metrics.forEach(f -> paths.add(Path.of(f)));
    if (rulesDirectory != null) {
      try (var files = Files.list(rulesDirectory)) {
        files.filter(p -> p.getFileName().toString().endsWith(".metrics")).sorted().forEach(paths::add);
      } catch (IOException e) {
        throw new UsageException("--rules " + rulesDirectory + ": cannot list it: " + e.getMessage());
      }
    }
    List<MetricFile> out = new ArrayList<>();
    for (Path p : paths) {
      String text;
      try {
        text = Files.readString(p, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UsageException("--metrics " + p + ": cannot read it: " + e.getMessage());
      }
      Diagnostics checked = MetricLibrary.builtin().with(p.toString(), text);
      if (checked.hasErrors()) {
        throw new UsageException(p.getFileName() + " has errors:\n" + String.join("\n", checked.errors().stream().map(DslError::located).toList()));
      }
      out.add(new MetricFile(p.getFileName().toString(), text));
    }
    return out;
  }

  static void print(SearchRunner runner, boolean json, PrintStream out) {
    if (json) {
      out.println(Json.write((runner.result() != null ? runner.result() : runner.search().toSaved()).toJson()));
      return;
    }
    out.println("search " + runner.search().id() + " ended: " + runner.search().endReason());
    out.println();
    out.println("search-history graph (state, hypothesis, focus, value in its unit and threshold):");
    out.print(runner.search().graph().toText(runner.search().hypotheses()));
    out.println();
    out.println("findings, by impact:");
    out.print(Findings.text(runner.result() != null ? Findings.of(runner.result()) : runner.search().findings()));
  }

  /** A budget as {@code 5%} or {@code 0.05}, in (0, 0.5]. */
  static double budget(String v, double fallback) {
    if (v == null) {
      return fallback;
    }
    double b;
    try {
      b = v.endsWith("%") ? Double.parseDouble(v.substring(0, v.length() - 1)) / 100 : Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new UsageException("--budget '" + v + "' is not a share of CPU: write e.g. 5% or 0.05");
    }
    if (!(b > 0 && b <= 0.5)) {
      throw new UsageException("--budget " + v + " is outside (0, 50%]");
    }
    return b;
  }

  /** A search's time limit: at least {@link #MIN_MAX_TIME}. */
  static Duration maxTime(Duration d) {
    if (d.compareTo(MIN_MAX_TIME) < 0) {
      throw new UsageException("--max-time " + Durations.format(d) + " is outside 1s .. 24h");
    }
    return d;
  }

  private static String percent(SearchRunner runner) {
    return dev.bottlenose.metrics.Numbers.plain(100 * runner.search().settings().number("budget.fraction"), 3) + "%";
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down already: the hook runs, harmlessly
    }
  }
}
