package dev.bottlenose.tests.bench;

import dev.bottlenose.tests.harness.TargetClasspath;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a search costs the whole run of a program, as its user measures it: the program does a fixed amount
 * of work ({@code -Ddiag.rounds}, see {@code diag.Run}) and reports its elapsed time since the JVM started and
 * its own CPU time, alone, under a JFR default recording started with it ({@code jfr}) or started {@code --lead}
 * seconds in by {@code jcmd PID JFR.start} ({@code jfr-attach}: how a user records a program already running), and
 * with {@code bottlenose search --pid N --budget B} started {@code --lead} seconds in (attach, JFR's start, probes,
 * recompiling, and the tool's own processes on the same cores, all included). The modes are interleaved and rotated in each
 * repetition. The tool's own processes' CPU (the search command, which serves its target itself, and any daemon
 * process it starts) is read from {@code /proc} while they run. A search mode ending in {@value #PROCESS}
 * ({@code 1%:process}) runs its daemon in a process of its own ({@code -Dbottlenose.search.daemons=process}); one
 * ending in {@value #AGENT} ({@code 1%:agent}) searches a program started with the waiting agent, and mode
 * {@value #AGENT_AT_REST} is that program never searched. A mode ending in {@value #SERVE} ({@code 1%:serve}) asks a
 * running {@code bottlenose serve} to attach ({@code POST /api/jvms}) and search ({@code POST /api/searches}), as
 * its web UI does: one service for the whole benchmark, started before the first repetition and warmed by one
 * search of a shorter run of the program, its CPU from the request to the program's end counted as the tool's.
 *
 * <p>Usage: {@code tests/bench-whole-run.sh [--program diag.real.JettyOrdersApi] [--rounds 26000] [--reps 3]
 * [--modes alone,jfr,jfr-attach,1%,5%] [--lead 1.5] [--target-java PATH] [--out DIR]}: {@code --target-java} runs
 * the program (and {@code jcmd}) on another JDK's {@code java} while the tool runs on this one. Writes
 * {@code results.tsv} and {@code summary.md}.
 */
public final class WholeRunBenchmark {
  private static final Pattern DONE = Pattern.compile("done cpu_s=([0-9.]+) elapsed_s=([0-9.]+)");
  /** A search mode's suffix for a daemon in a process of its own. */
  static final String PROCESS = ":process";
  /**
   * A search mode's suffix ({@code 1%:agent}) for a program started with {@code -javaagent:bottlenose-agent.jar}: the
   * agent waits, and the search hands it its options instead of attaching.
   */
  static final String AGENT = ":agent";
  /** A search mode's suffix ({@code 1%:serve}) for a search a running service makes, as its web UI asks it to. */
  static final String SERVE = ":serve";
  /** The mode of a program started with the waiting agent and never searched. */
  static final String AGENT_AT_REST = "agent";
  /** The mode that starts a JFR default recording in the running program. */
  static final String JFR_ATTACH = "jfr-attach";

  private WholeRunBenchmark() {}

  /** The program's threads by group ({@link ProcCpu#group}), in the order the summary shows them. */
  static final List<String> GROUPS = List.of("program", "jit", "gc", "jfr", "agent", "vm");

  /**
   * One run: its mode, repetition, the program's elapsed and CPU seconds, the tool's processes' CPU seconds, and the
   * program's CPU seconds per thread group ({@link #GROUPS}, read from {@code /proc} while it ran).
   */
  record Result(String mode, int rep, double elapsed, double cpu, double toolCpu, Map<String, Double> groups) {}

  public static void main(String[] args) throws Exception {
    Options o = Options.parse(args);
    Files.createDirectories(o.out);
    Path tsv = o.out.resolve("results.tsv");
    Files.writeString(tsv, "mode\trep\telapsed_s\tcpu_s\ttool_cpu_s\t" + String.join("\t", GROUPS) + "\n");
    List<Result> results = new ArrayList<>();
    Service service = o.modes.stream().anyMatch(m -> m.endsWith(SERVE)) ? Service.start(o) : null;
    try {
      runAll(o, tsv, results, service);
    } finally {
      if (service != null) {
        service.close();
      }
    }
    System.out.println(summary(results, o));
  }

  private static void runAll(Options o, Path tsv, List<Result> results, Service service) throws Exception {
    for (int rep = 1; rep <= o.reps; rep++) {
      List<String> order = new ArrayList<>(o.modes);
      java.util.Collections.rotate(order, -(rep - 1));
      for (String mode : order) {
        Result r = run(mode, rep, o, service);
        results.add(r);
        StringBuilder groups = new StringBuilder();
        GROUPS.forEach(g -> groups.append(String.format(Locale.ROOT, "\t%.2f", r.groups.getOrDefault(g, 0.0))));
        Files.writeString(tsv, String.format(Locale.ROOT, "%s\t%d\t%.3f\t%.3f\t%.2f%s%n", r.mode, r.rep, r.elapsed, r.cpu,
            r.toolCpu, groups), java.nio.file.StandardOpenOption.APPEND);
        System.out.printf(Locale.ROOT, "rep %d %-6s elapsed %.2f s, program CPU %.2f s, tool CPU %.2f s%n", rep, mode,
            r.elapsed, r.cpu, r.toolCpu);
        Files.writeString(o.out.resolve("summary.md"), summary(results, o));
      }
    }
  }

  static Result run(String mode, int rep, Options o, Service service) throws Exception {
    Path tmp = Files.createTempDirectory("whole-run-");
    try {
      List<String> cmd = new ArrayList<>(List.of(o.targetJava, "-Ddiag.rounds=" + o.rounds,
          "-Ddiag.seconds=600"));
      if (mode.equals("jfr")) {
        cmd.add("-XX:StartFlightRecording=filename=" + tmp.resolve("run.jfr"));
      } else if (mode.endsWith(AGENT) || mode.equals(AGENT_AT_REST)) {
        cmd.add("-javaagent:" + DiagnosisBenchmark.jar("daemon").resolveSibling("bottlenose-agent.jar"));
      }
      cmd.addAll(List.of("-cp", TargetClasspath.of(), o.program));
      Process target = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String[] done = new String[1];
      Thread reader = new Thread(() -> done[0] = awaitDone(target), "reader");
      reader.start();
      Map<Long, ProcCpu.ThreadCpu> threads = new java.util.concurrent.ConcurrentHashMap<>();
      Thread watcher = new Thread(() -> watchThreads(target, threads), "threads");
      watcher.start();
      double toolCpu = 0;
      if (mode.endsWith(SERVE)) {
        Thread.sleep(Math.round(o.lead * 1000));
        Map<Long, ProcCpu.ThreadCpu> toolThreads = new java.util.concurrent.ConcurrentHashMap<>();
        String label = mode.replace('%', 'p').replace(':', '-') + "-" + rep;
        toolCpu = service.search(target, budgetOf(mode), toolThreads, o.out.resolve("search-" + label + ".json"));
        writeToolThreads(o.out.resolve("tool-threads-" + label + ".tsv"), toolThreads);
      } else if (isSearch(mode)) {
        Thread.sleep(Math.round(o.lead * 1000));
        boolean process = mode.endsWith(PROCESS);
        Process search = new ProcessBuilder(DiagnosisBenchmark.searchCommand(target.pid(), budgetOf(mode), "600s", tmp,
            process ? List.of("-Dbottlenose.search.daemons=process") : List.of()))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Map<Long, ProcCpu.ThreadCpu> toolThreads = new java.util.concurrent.ConcurrentHashMap<>();
        toolCpu = watchTool(search, toolThreads);
        String label = mode.replace('%', 'p').replace(':', '-') + "-" + rep;
        writeToolThreads(o.out.resolve("tool-threads-" + label + ".tsv"), toolThreads);
        keepSearch(tmp, o.out.resolve("search-" + label + ".json"));
      } else if (mode.equals(JFR_ATTACH)) {
        Thread.sleep(Math.round(o.lead * 1000));
        Process jcmd = new ProcessBuilder(Path.of(o.targetJava).resolveSibling("jcmd").toString(),
            Long.toString(target.pid()), "JFR.start", "filename=" + tmp.resolve("run.jfr"))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        toolCpu = watchTool(jcmd, new java.util.concurrent.ConcurrentHashMap<>());
      }
      reader.join(TimeUnit.MINUTES.toMillis(10));
      target.waitFor(1, TimeUnit.MINUTES);
      watcher.join();
      if (done[0] == null) {
        throw new IllegalStateException("the program did not report its work done (mode " + mode + ")");
      }
      Matcher m = DONE.matcher(done[0]);
      if (!m.find()) {
        throw new IllegalStateException("unexpected line: " + done[0]);
      }
      Map<String, Double> groups = new LinkedHashMap<>();
      ProcCpu.byGroup(Map.of(), threads).forEach((g, s) -> groups.merge(programOr(g), s, Double::sum));
      return new Result(mode, rep, Double.parseDouble(m.group(2)), Double.parseDouble(m.group(1)), toolCpu, groups);
    } finally {
      try (var paths = Files.walk(tmp)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  /**
   * Keeps the search's saved file beside the results ({@code search-<mode>-<rep>.json}, from its {@code --data}
   * directory, {@code data}): what it measured, and when, explains what the run cost.
   */
  private static void keepSearch(Path data, Path to) throws java.io.IOException {
    try (var files = Files.list(data)) {
      var saved = files.filter(f -> f.getFileName().toString().matches("s-[^.]+\\.json")).findFirst();
      if (saved.isPresent()) {
        Files.copy(saved.get(), to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  /**
   * Keeps each of the target's threads' latest CPU seconds until it exits, read every 100 ms: a thread's last tenth
   * of a second may be missed, the same in every mode.
   */
  private static void watchThreads(Process target, Map<Long, ProcCpu.ThreadCpu> threads) {
    while (target.isAlive()) {
      try {
        threads.putAll(ProcCpu.threads(target.pid()));
        Thread.sleep(100);
      } catch (RuntimeException e) {
        return; // the target has exited
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** A thread group of {@link #GROUPS}: the program's own threads ("app" and "other") are one. */
  private static String programOr(String group) {
    return GROUPS.contains(group) ? group : "program";
  }

  /**
   * The search command's CPU seconds per thread name, digits dropped ({@code vert.x-eventloop-thread-}), most first:
   * where the tool's own process spends what it costs the machine.
   */
  private static void writeToolThreads(Path file, Map<Long, ProcCpu.ThreadCpu> threads) throws IOException {
    Map<String, Double> byName = new java.util.TreeMap<>();
    threads.values().forEach(t -> byName.merge(t.name().replaceAll("[0-9]+", "#"), t.seconds(), Double::sum));
    StringBuilder b = new StringBuilder("thread\tcpu_s\n");
    byName.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
        .forEach(e -> b.append(String.format(Locale.ROOT, "%s\t%.2f%n", e.getKey(), e.getValue())));
    Files.writeString(file, b);
  }

  /** The search command's and its daemon's CPU seconds, read until the search ends (it ends when the target exits). */
  private static double watchTool(Process search, Map<Long, ProcCpu.ThreadCpu> threads) throws InterruptedException {
    Map<Long, Double> last = new LinkedHashMap<>();
    while (search.isAlive()) {
      last.merge(search.pid(), cpu(search.pid()), Math::max);
      try {
        threads.putAll(ProcCpu.threads(search.pid()));
      } catch (RuntimeException e) {
        // it has just exited
      }
      search.descendants().forEach(d -> last.merge(d.pid(), cpu(d.pid()), Math::max));
      Thread.sleep(200);
    }
    return last.values().stream().filter(v -> !Double.isNaN(v)).mapToDouble(Double::doubleValue).sum();
  }

  private static double cpu(long pid) {
    try {
      return ProcCpu.processSeconds(pid);
    } catch (RuntimeException e) {
      return Double.NaN;
    }
  }

  private static String awaitDone(Process target) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8))) {
      String found = null;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.startsWith("done ")) {
          found = line;
        }
      }
      return found;
    } catch (IOException e) {
      return null;
    }
  }

  private static boolean isSearch(String mode) {
    return mode.endsWith("%") || mode.endsWith("%" + PROCESS) || mode.endsWith("%" + AGENT)
        || mode.endsWith("%" + SERVE);
  }

  /** A search mode's budget as a fraction: {@code 1%:serve} → 0.01. */
  private static double budgetOf(String mode) {
    return Double.parseDouble(mode.substring(0, mode.indexOf('%'))) / 100;
  }

  /**
   * A {@code bottlenose serve} of this benchmark's, on a free loopback port, its searches saved in a directory of its
   * own: started and warmed once ({@link #start}), then asked to attach to and search each program of a
   * {@value #SERVE} mode.
   */
  record Service(Process process, String url, Path data, java.net.http.HttpClient http) implements AutoCloseable {
    private static final Pattern SERVING = Pattern.compile("serving (http://[^ /]+:\\d+)/");

    /** Starts the service and searches a quarter-length run of the program once, so its code is compiled. */
    static Service start(Options o) throws Exception {
      Path data = Files.createTempDirectory("whole-run-service-");
      Path log = data.resolve("serve.out");
      List<String> cmd = DiagnosisBenchmark.webCommand(List.of(), "serve", "--port", "0", "--data", data.toString());
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      String url = null;
      while (url == null) {
        Matcher m = SERVING.matcher(Files.readString(log));
        if (m.find()) {
          url = m.group(1);
        } else if (!p.isAlive() || System.nanoTime() > deadline) {
          p.destroy();
          throw new IllegalStateException("the service did not start: " + Files.readString(log));
        }
        Thread.sleep(200);
      }
      Service service = new Service(p, url, data, java.net.http.HttpClient.newHttpClient());
      List<String> warm = new ArrayList<>(List.of(o.targetJava, "-Ddiag.rounds=" + Math.max(1, o.rounds / 4),
          "-Ddiag.seconds=600", "-cp", TargetClasspath.of(), o.program));
      Process target = new ProcessBuilder(warm).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      Thread.sleep(Math.round(o.lead * 1000));
      service.search(target, 0.01, new java.util.concurrent.ConcurrentHashMap<>(), null);
      System.out.printf(Locale.ROOT, "service %s started and warmed by one search (%.1f s of CPU so far)%n", url,
          ProcCpu.processSeconds(p.pid()));
      return service;
    }

    /**
     * Asks the service to attach to {@code target} and search it at {@code budget} until it exits; the service's CPU
     * seconds from the request to then, and its threads' in {@code threads}; the saved search copied to {@code keep}.
     */
    double search(Process target, double budget, Map<Long, ProcCpu.ThreadCpu> threads, Path keep) throws Exception {
      Map<Long, ProcCpu.ThreadCpu> before = ProcCpu.threads(process.pid());
      double start = ProcCpu.processSeconds(process.pid());
      String daemonId = post("/api/jvms", new io.vertx.core.json.JsonObject().put("pid", target.pid()))
          .getString("daemonId");
      String searchId = post("/api/searches", new io.vertx.core.json.JsonObject().put("daemons",
          new io.vertx.core.json.JsonArray().add(daemonId)).put("budget", budget).put("maxTimeSeconds", 600))
          .getString("searchId");
      target.waitFor();
      Thread.sleep(1000);
      Path saved = data.resolve(searchId + ".json");
      if (keep != null && Files.isRegularFile(saved)) {
        Files.copy(saved, keep, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
      double spent = ProcCpu.processSeconds(process.pid()) - start;
      ProcCpu.threads(process.pid()).forEach((id, t) -> {
        ProcCpu.ThreadCpu was = before.get(id);
        threads.put(id, new ProcCpu.ThreadCpu(t.name(), t.seconds() - (was == null ? 0 : was.seconds())));
      });
      return spent;
    }

    private io.vertx.core.json.JsonObject post(String path, io.vertx.core.json.JsonObject body) throws Exception {
      java.net.http.HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url + path))
          .header("Content-Type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(body.encode()))
          .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 201) {
        throw new IllegalStateException("POST " + path + " answered " + r.statusCode() + ": " + r.body());
      }
      return new io.vertx.core.json.JsonObject(r.body());
    }

    @Override
    public void close() throws Exception {
      process.destroy();
      process.waitFor(30, TimeUnit.SECONDS);
      try (var paths = Files.walk(data)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  static String summary(List<Result> results, Options o) {
    StringBuilder b = new StringBuilder("# Whole-run cost\n\n");
    b.append(String.format(Locale.ROOT, "`%s` with `-Ddiag.rounds=%d` (a fixed amount of work) on `%s`; %d"
        + " repetition(s), modes rotated; a search starts %.1f s after the program.%n%n", o.program, o.rounds,
        o.targetJava, o.reps, o.lead));
    b.append("| mode | elapsed s (median) | × alone | program CPU s (median) | × alone | tool's processes CPU s |\n");
    b.append("| --- | --- | --- | --- | --- | --- |\n");
    for (String mode : o.modes) {
      List<Result> of = results.stream().filter(r -> r.mode.equals(mode)).toList();
      if (of.isEmpty()) {
        continue;
      }
      b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", mode,
          range(of.stream().map(Result::elapsed).toList()), ratio(results, mode, Result::elapsed),
          range(of.stream().map(Result::cpu).toList()), ratio(results, mode, Result::cpu),
          isSearch(mode) || mode.equals(JFR_ATTACH) ? range(of.stream().map(Result::toolCpu).toList()) : "–"));
    }
    b.append("\nWhere the program's CPU went, median seconds per thread group (the program's own threads, the JIT's"
        + " compilers, the GC's, JFR's, the agent's and the Attach listener, the VM thread):\n\n| mode | "
        + String.join(" | ", GROUPS) + " |\n|" + " --- |".repeat(GROUPS.size() + 1) + "\n");
    for (String mode : o.modes) {
      List<Result> of = results.stream().filter(r -> r.mode.equals(mode)).toList();
      if (of.isEmpty()) {
        continue;
      }
      b.append("| ").append(mode);
      for (String g : GROUPS) {
        b.append(String.format(Locale.ROOT, " | %.2f",
            Stats.of(of.stream().map(r -> r.groups.getOrDefault(g, 0.0)).toList()).median()));
      }
      b.append(" |\n");
    }
    return b.toString();
  }

  /** {@code median (min–max)}. */
  private static String range(List<Double> values) {
    Stats s = Stats.of(values);
    return String.format(Locale.ROOT, "%.2f (%.2f–%.2f)", s.median(), s.min(), s.max());
  }

  /** The median over repetitions of this mode's figure over the same repetition's alone run. */
  private static String ratio(List<Result> results, String mode, java.util.function.ToDoubleFunction<Result> f) {
    List<Double> ratios = new ArrayList<>();
    for (Result r : results) {
      if (!r.mode.equals(mode)) {
        continue;
      }
      results.stream().filter(a -> a.mode.equals("alone") && a.rep == r.rep).findFirst()
          .ifPresent(a -> ratios.add(f.applyAsDouble(r) / f.applyAsDouble(a)));
    }
    return ratios.isEmpty() ? "–" : String.format(Locale.ROOT, "×%.3f", Stats.of(ratios).median());
  }

  record Options(String program, long rounds, int reps, List<String> modes, double lead, Path out, String targetJava) {
    static Options parse(String[] args) {
      String program = "diag.real.JettyOrdersApi";
      long rounds = 26000;
      int reps = 3;
      List<String> modes = List.of("alone", "jfr", JFR_ATTACH, "1%", "5%");
      double lead = 1.5;
      Path out = Paths.get("tests/target/bench-whole-run");
      String targetJava = DiagnosisBenchmark.java();
      for (int i = 0; i < args.length; i++) {
        String value = i + 1 < args.length ? args[i + 1] : null;
        switch (args[i]) {
          case "--program" -> program = value;
          case "--rounds" -> rounds = Long.parseLong(value);
          case "--reps" -> reps = Integer.parseInt(value);
          case "--modes" -> modes = Arrays.asList(value.split(","));
          case "--lead" -> lead = Double.parseDouble(value);
          case "--out" -> out = Paths.get(value);
          case "--target-java" -> targetJava = value;
          default -> throw new IllegalArgumentException("unknown option " + args[i] + "; see tests/bench-whole-run.sh");
        }
        i++;
      }
      if (!modes.contains("alone")) {
        throw new IllegalArgumentException("--modes must include alone: the other modes are compared with it");
      }
      return new Options(program, rounds, reps, modes, lead, out, targetJava);
    }
  }
}
