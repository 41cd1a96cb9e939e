package dev.bottlenose.tests.bench;

import dev.bottlenose.tests.bench.compute.ComputeWorkload;
import dev.bottlenose.tests.bench.mixed.MixedWorkload;
import dev.bottlenose.tests.harness.Bus;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The target's slowdown with a search running at each overhead budget, against the same workload without the
 * tool. {@code --mode session} (the default): per repetition and workload one JVM is measured without the tool,
 * then right after the daemon attached (the attach's one-time aftermath, no search), then, after {@code --settle}
 * seconds (default 60) unmeasured, attached with no search, then with one search per budget, the budgets' order
 * rotated from one repetition to the next. {@code --mode fresh}: per repetition, workload and budget, {@code without, with}
 * windows, each in a fresh JVM (so each with-window also carries the attach's aftermath). {@code --control twin}
 * (the default, session mode only): a second JVM of the same workload runs through each session without the
 * tool and is measured over the same windows, so a slowdown can be corrected for what the machine's other
 * load did to both in the meantime ({@link Report}); {@code --control none} runs without it. Results go to {@code results.tsv} as they come, and a markdown summary to
 * {@code summary.md}, both in the output directory. {@code --from results.tsv} only summarises;
 * {@code --from a.tsv,b.tsv} pools several runs' repetitions.
 * Run it with {@code tests/bench-search.sh}.
 */
public final class SearchOverheadBenchmark {
  private static final Duration GAP = Duration.ofSeconds(5);
  private static final Map<String, Class<?>> WORKLOADS = Map.of("compute", ComputeWorkload.class,
      "mixed", MixedWorkload.class);

  private SearchOverheadBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> o = options(args);
    if (o.containsKey("from")) {
      List<TrialResult> results = new ArrayList<>();
      for (String file : o.get("from").split(",")) {
        Files.readAllLines(Path.of(file), StandardCharsets.UTF_8).stream().skip(1).filter(l -> !l.isBlank())
            .map(TrialResult::fromTsv).forEach(results::add);
      }
      System.out.println(new Report(results).markdown());
      return;
    }
    int reps = Integer.parseInt(o.getOrDefault("reps", "3"));
    List<Double> budgets = Arrays.stream(o.getOrDefault("budgets", "0.01,0.02,0.05,0.10").split(","))
        .map(Double::parseDouble).toList();
    List<String> workloads = List.of(o.getOrDefault("workloads", "compute,mixed").split(","));
    workloads.forEach(w -> {
      if (!WORKLOADS.containsKey(w)) {
        throw new IllegalArgumentException("unknown workload '" + w + "' (known: " + WORKLOADS.keySet() + ")");
      }
    });
    Path out = Path.of(o.getOrDefault("out", "target/bench-search"));
    Files.createDirectories(out);
    Path data = Files.createTempDirectory("bottlenose-bench-searches-");
    Trial.Settings settings = new Trial.Settings(Duration.ofSeconds(Long.parseLong(o.getOrDefault("warmup", "8"))),
        Duration.ofSeconds(Long.parseLong(o.getOrDefault("window", "20"))),
        List.of(o.getOrDefault("jvm", "-Xms256m -Xmx256m").split(" ")), data, control(o),
        Duration.ofSeconds(Long.parseLong(o.getOrDefault("settle", "60"))), overrides(o.getOrDefault("set", "")));
    String mode = o.getOrDefault("mode", "session");
    if (!mode.equals("session") && !mode.equals("fresh")) {
      throw new IllegalArgumentException("unknown --mode '" + mode + "' (session or fresh)");
    }
    List<TrialResult> results = run(reps, budgets, workloads, settings, out.resolve("results.tsv"),
        mode.equals("session"));
    String summary = new Report(results).markdown();
    Files.writeString(out.resolve("summary.md"), summary, StandardCharsets.UTF_8);
    System.out.println(summary);
    try (Stream<Path> files = Files.walk(data)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    System.exit(0);
  }

  private static List<TrialResult> run(int reps, List<Double> budgets, List<String> workloads, Trial.Settings settings,
      Path tsv, boolean session) throws Exception {
    List<TrialResult> results = new ArrayList<>();
    Bus bus = Bus.join();
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(tsv, StandardCharsets.UTF_8))) {
      w.println(TrialResult.header());
      Trial trial = new Trial(bus, settings);
      Map<String, Double> attach = new HashMap<>();
      for (int rep = 1; rep <= reps; rep++) {
        for (String name : workloads) {
          if (session) {
            List<Double> order = rotated(budgets, rep - 1);
            trial.session(WORKLOADS.get(name), name, rep, order, GAP, r -> record(results, w, r));
            continue;
          }
          for (double budget : budgets) {
            record(results, w, trial.without(WORKLOADS.get(name), name, rep, attach.getOrDefault(name, 5.0)));
            TrialResult with = trial.with(WORKLOADS.get(name), name, budget, rep);
            attach.put(name, with.attachSeconds());
            record(results, w, with);
          }
        }
      }
    } finally {
      bus.close();
    }
    return results;
  }

  /** {@code list} rotated left by {@code k}: each repetition starts with another budget. */
  static List<Double> rotated(List<Double> list, int k) {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      out.add(list.get((i + k) % list.size()));
    }
    return out;
  }

  private static void record(List<TrialResult> results, PrintWriter w, TrialResult r) {
    results.add(r);
    w.println(r.toTsv());
    w.flush();
    System.out.printf("%s budget=%s rep=%d load=%.1f units=%d cpu=%.2fs cpu/unit=%.4fms units/s=%.0f agent=%.2fs"
            + " jfr=%.2fs searches=%d nodes=%d maxTesting=%d%n", r.workload(), r.withTool() ? r.budget() : "none",
        r.rep(), r.load1(), r.units(), r.cpuSeconds(), r.cpuPerUnit(), r.throughput(), r.groups().getOrDefault("agent", 0.0),
        r.groups().getOrDefault("jfr", 0.0), r.searches(), r.nodes(), r.maxTesting());
  }

  /** {@code --set "search.skip=sync_wait;budget.burst_seconds=20"}: consultant settings for every search. */
  static Map<String, String> overrides(String set) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    for (String pair : set.split(";")) {
      if (pair.isBlank()) {
        continue;
      }
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("--set wants key=value pairs separated by ';', not '" + pair + "'");
      }
      out.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }
    return out;
  }

  private static boolean control(Map<String, String> o) {
    String control = o.getOrDefault("control", "twin");
    if (!control.equals("twin") && !control.equals("none")) {
      throw new IllegalArgumentException("unknown --control '" + control + "' (twin or none)");
    }
    return control.equals("twin");
  }

  private static Map<String, String> options(String[] args) throws IOException {
    Map<String, String> o = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected --name value at argument " + (i + 1) + ": '" + args[i] + "'"
            + " (options: --mode --control --reps --budgets --workloads --warmup --window --settle --jvm --set"
            + " --out --from)");
      }
      o.put(args[i].substring(2), args[++i]);
    }
    return o;
  }
}
