package dev.bottlenose.web.cli;

import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.SearchOptions;
import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.consultant.rules.RuleBook;
import dev.bottlenose.metrics.Diagnostics;
import dev.bottlenose.metrics.DslError;
import dev.bottlenose.metrics.MetricLibrary;
import dev.bottlenose.model.json.Json;
import dev.bottlenose.web.render.Bottlenecks;
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
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code search}: a daemon per pid (reused when one runs), one search over them with the budget and time
 * limit, progress on stderr, then the search-history graph as a tree and the bottlenecks (or, with
 * {@code --json}, the saved search) on stdout. Ctrl-C stops the search, which is saved all the same.
 */
final class SearchCommand {
  static final Set<String> VALUED = Set.of("pid", "budget", "max-time", "data", "set", "skip", "rules", "metrics");
  static final Set<String> FLAGS = Set.of("json");
  private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  private SearchCommand() {}

  static int run(Args a, PrintStream out, PrintStream err) throws Exception {
    List<Long> pids = a.pids();
    if (pids.isEmpty()) {
      throw new UsageException("give the JVM to search with --pid N (several --pid for several JVMs; 'bottlenose jvms' lists them)");
    }
    SearchOptions options = options(a, "s-" + LocalDateTime.now().format(ID_TIME) + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000)));
    Path data = Path.of(a.option("data", "data/searches"));
    boolean json = a.has("json");
    List<MetricFile> metricFiles = metricFiles(a, options.rulesDirectory());
    try (Member member = Member.join(err)) {
      List<String> daemons = member.daemonsFor(pids, err);
      for (MetricFile f : metricFiles) {
        member.addMetrics(daemons, f.name(), f.text(), err);
      }
      SearchRunner runner;
      try (Progress progress = new Progress(member.vertx(), options.id(), err)) {
        runner = Member.await(member.vertx().executeBlocking(() -> SearchRunner.start(member.vertx(), daemons,
            options.with("web.daemons", String.join(",", daemons)), data), false), 60, "starting the search");
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
      }
      print(runner, json, out);
      if (runner.daemonLost()) {
        err.println("bottlenose: the search did not finish: " + runner.search().endReason() + "; what it found so far is"
            + " saved");
        return Main.FAILED;
      }
    }
    return Main.OK;
  }

  static SearchOptions options(Args a, String id) {
    SearchOptions options = SearchOptions.of(id).withBudget(a.budget(0.05)).withMaxTime(a.duration("max-time", Duration.ofSeconds(60)));
    for (String kv : a.all("set")) {
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw new UsageException("--set '" + kv + "' is not key=value");
      }
      options = options.with(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
    }
    if (!a.all("skip").isEmpty()) {
      options = options.with("search.skip", String.join(",", a.all("skip")));
    }
    if (a.has("rules")) {
      Path rules = Path.of(a.option("rules", null));
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
      HypothesisCatalog.of(options.settings());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return options;
  }

  /** A metric file to add to the search's daemons before it starts. */
  record MetricFile(String name, String text) {}

  /** The files of {@code --metrics FILE} (repeatable), then the {@code *.metrics} files of the rules directory. */
  static List<MetricFile> metricFiles(Args a, Path rulesDirectory) {
    List<Path> paths = new ArrayList<>();
    a.all("metrics").forEach(f -> paths.add(Path.of(f)));
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
      out.println(Json.write(runner.search().toSaved().toJson()));
      return;
    }
    out.println("search " + runner.search().id() + " ended: " + runner.search().endReason());
    out.println();
    out.println("search-history graph (state, hypothesis, focus, value / threshold):");
    out.print(runner.search().graph().toText());
    out.println();
    out.println("bottlenecks:");
    out.print(Bottlenecks.text(Bottlenecks.of(runner.search().graph(), runner.search().hypotheses())));
  }

  private static String percent(SearchRunner runner) {
    return String.format(java.util.Locale.ROOT, "%.3g%%", 100 * runner.search().settings().number("budget.fraction"));
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down already: the hook runs, harmlessly
    }
  }
}
