package dev.bottlenose.tests.bench;

import dev.bottlenose.tests.harness.TargetClasspath;
import dev.bottlenose.consultant.Findings;
import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.model.json.Json;
import dev.bottlenose.tests.bench.DiagnosisSuite.Answer;
import dev.bottlenose.tests.bench.DiagnosisSuite.Part;
import dev.bottlenose.tests.bench.DiagnosisSuite.Program;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The diagnosis benchmark: runs every program of the {@link DiagnosisSuite} as a user would meet it, a JVM
 * already running, and a search started with the command line ({@code bottlenose search --pid N --budget B
 * --max-time T --json}) a few seconds after the program; then checks what the search found against the
 * program's known answer and writes a table: right why and where, the seconds from the command to the
 * located verdict, what else was found true, and the target's CPU during the search against its rate before.
 *
 * <p>Usage: {@code tests/bench-diagnosis.sh [--budgets 0.01,0.05] [--reps 1] [--programs id,id] [--max-time 60]
 * [--lead 4] [--out DIR]}. Results: {@code results.tsv} (one line a run) and {@code summary.md}.
 */
public final class DiagnosisBenchmark {
  private DiagnosisBenchmark() {}

  /** One search of one program at one budget. */
  record Run(Program program, double budget, int rep, boolean rightWhy, boolean located, double locatedSeconds,
      int findingRank, int findings, List<String> found, List<String> extra, double cpuBefore, double cpuDuring, int exit,
      String endReason) {
    boolean right() {
      return program.idle() ? found.isEmpty() : located;
    }
  }

  public static void main(String[] args) throws Exception {
    Options o = Options.parse(args);
    Files.createDirectories(o.out);
    Path tsv = o.out.resolve("results.tsv");
    List<Run> runs = new ArrayList<>();
    Files.writeString(tsv, "program\tpart\tbudget\trep\tright_why\tlocated\tlocated_s\tfinding_rank\tfindings\tfound\textra"
        + "\tcpu_before\tcpu_during"
        + "\texit\tend\n");
    for (int rep = 1; rep <= o.reps; rep++) {
      for (double budget : o.budgets) {
        for (Program p : DiagnosisSuite.select(o.programs)) {
          Run r = run(p, budget, rep, o);
          runs.add(r);
          Files.writeString(tsv, line(r), java.nio.file.StandardOpenOption.APPEND);
          System.out.printf(Locale.ROOT, "%-18s %4s rep %d: %s%s%n", p.id(), label(budget), rep,
              r.right() ? "right" : "WRONG", r.located ? String.format(Locale.ROOT, " in %.1f s", r.locatedSeconds) : "");
          // the table so far, so that a run cut short still leaves one
          Files.writeString(o.out.resolve("summary.md"), summary(runs, o));
        }
      }
    }
    String summary = summary(runs, o);
    Files.writeString(o.out.resolve("summary.md"), summary);
    System.out.println(summary);
  }

  static Run run(Program p, double budget, int rep, Options o) throws Exception {
    Path data = Files.createTempDirectory("diag-data-");
    List<String> cmd = new ArrayList<>(List.of(java(), "-Ddiag.seconds=" + (o.lead + o.maxTime + 180)));
    cmd.addAll(p.jvmOptions());
    cmd.addAll(List.of("-cp", TargetClasspath.of(), p.mainClass()));
    Process target = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
      String first = out.readLine();
      if (first == null || !first.startsWith("ready")) {
        throw new IllegalStateException(p.id() + " did not start: " + first);
      }
      java.util.Deque<String> last = new java.util.ArrayDeque<>();
      Thread drain = new Thread(() -> drain(out, last), "drain");
      drain.setDaemon(true);
      drain.start();
      long pid = target.pid();
      double cpu0 = ProcCpu.processSeconds(pid);
      long t0 = System.nanoTime();
      Thread.sleep(o.lead * 1000L);
      double cpuBefore = (ProcCpu.processSeconds(pid) - cpu0) / ((System.nanoTime() - t0) / 1e9);
      double cpu1 = ProcCpu.processSeconds(pid);
      long commandAtMillis = System.currentTimeMillis();
      long c0 = System.nanoTime();
      List<String> command = searchCommand(pid, budget, o.maxTime + "s", data);
      command.add("--json");
      Process search = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String json = new String(search.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      Files.writeString(o.out.resolve(p.id() + "-" + label(budget).replace("%", "pct") + "-" + rep + ".json"), json);
      boolean ended = search.waitFor(o.maxTime + 120L, TimeUnit.SECONDS);
      double cpuDuring = (cpuSeconds(pid) - cpu1) / ((System.nanoTime() - c0) / 1e9);
      int exit = ended ? search.exitValue() : -1;
      Run r = judge(p, budget, rep, json, commandAtMillis, cpuBefore, cpuDuring, exit);
      if (!target.isAlive()) {
        String said;
        synchronized (last) {
          said = String.join(" | ", last);
        }
        System.out.printf(Locale.ROOT, "%s: the program exited (%d) during the search; its last output: %s%n", p.id(),
            target.exitValue(), said);
        List<String> extra = new ArrayList<>(r.extra());
        extra.add(0, "PROGRAM EXITED " + target.exitValue());
        r = new Run(r.program(), r.budget(), r.rep(), r.rightWhy(), r.located(), r.locatedSeconds(), r.findingRank(),
            r.findings(), r.found(), extra,
            r.cpuBefore(), r.cpuDuring(), r.exit(), r.endReason());
      }
      return r;
    } finally {
      target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      ChildJvm.removeJfrRepositories(target.pid());
      deleteTree(data);
    }
  }

  /** What the saved search (its JSON) found, against the program's answers. */
  @SuppressWarnings("unchecked")
  static Run judge(Program p, double budget, int rep, String json, long commandAtMillis, double cpuBefore,
      double cpuDuring, int exit) {
    Map<String, Object> saved;
    try {
      saved = (Map<String, Object>) Json.parse(json.trim());
    } catch (RuntimeException e) {
      return new Run(p, budget, rep, false, false, Double.NaN, 0, 0, List.of(), List.of("no JSON: " + e.getMessage()),
          cpuBefore, cpuDuring, exit, null);
    }
    List<Map<String, Object>> nodes = (List<Map<String, Object>>) ((Map<String, Object>) saved.get("graph")).get("nodes");
    List<Map<String, Object>> trueNodes = nodes.stream().filter(n -> "true".equals(n.get("state"))
        && !"top".equals(n.get("hypothesis"))).toList();
    List<String> found = trueNodes.stream().map(DiagnosisBenchmark::describe).toList();
    boolean rightWhy = false;
    double located = Double.NaN;
    int answered = 0;
    List<String> extra = new ArrayList<>();
    for (Map<String, Object> n : trueNodes) {
      if (p.answers().stream().noneMatch(a -> a.why().contains((String) n.get("hypothesis")))) {
        extra.add(describe(n));
      }
    }
    for (Answer a : p.answers()) {
      double first = Double.NaN;
      for (Map<String, Object> n : trueNodes) {
        if (a.why().contains((String) n.get("hypothesis"))) {
          rightWhy = true;
          if (matches(n, a.where())) {
            double s = (((Number) n.get("concludedAtMillis")).longValue() - commandAtMillis) / 1000.0;
            first = Double.isNaN(first) ? s : Math.min(first, s);
          }
        }
      }
      if (!Double.isNaN(first)) {
        answered++;
        located = Double.isNaN(located) ? first : p.all() ? Math.max(located, first) : Math.min(located, first);
      }
    }
    boolean isLocated = p.all() ? answered == p.answers().size() : answered > 0;
    int rank = 0;
    int findings = 0;
    try {
      SavedSearch search = SavedSearch.fromJson(saved);
      List<Findings.Finding> list = Findings.of(search);
      rank = findingRank(p, search, list);
      findings = list.size();
    } catch (RuntimeException e) {
      extra.add("findings not read: " + e.getMessage());
    }
    return new Run(p, budget, rep, rightWhy, isLocated, isLocated ? located : Double.NaN, rank, findings, found, extra,
        cpuBefore, cpuDuring, exit, (String) saved.get("endReason"));
  }

  /**
   * Where the known answer comes among the findings the user reads ({@link Findings}), 1 for the first; the lowest
   * rank of any answer (the last of them for a program whose every answer must be found); 0 when one is not there.
   * A finding names an answer when one of its true nodes (its lead, or one folded into it: the cause it refines, the
   * same cause at a wider place) is of one of the answer's hypotheses or of one refining it, at a focus that holds
   * the answer's place; for a place in the code, also when the finding names the program's method there (its lead is
   * in the platform's code, which the program's method called) or objects of a type of that code (an allocation
   * finding located by what is allocated).
   */
  static int findingRank(Program p, SavedSearch search, List<Findings.Finding> findings) {
    int rank = 0;
    for (Answer a : p.answers()) {
      int first = 0;
      for (Findings.Finding f : findings) {
        if (names(f, a, search)) {
          first = f.rank();
          break;
        }
      }
      if (first == 0 && p.all()) {
        return 0;
      }
      rank = first == 0 ? rank : rank == 0 ? first : p.all() ? Math.max(rank, first) : Math.min(rank, first);
    }
    return rank;
  }

  private static boolean names(Findings.Finding f, Answer a, SavedSearch search) {
    String code = a.where().startsWith("/Code/") ? a.where().substring("/Code/".length()).replace('/', '.') : null;
    for (int id : f.nodeIds()) {
      dev.bottlenose.consultant.ShgNode n = search.graph().node(id);
      if (a.why().stream().noneMatch(why -> search.hypotheses().isOrRefines(n.hypothesis(), why))) {
        continue;
      }
      String focus = n.focus().toString();
      if (focus.contains(a.where()) || code != null && (focus.contains("/Memory/" + code)
          || f.programCode().stream().anyMatch(m -> m.startsWith(code)))) {
        return true;
      }
    }
    return false;
  }

  @SuppressWarnings("unchecked")
  private static boolean matches(Map<String, Object> node, String where) {
    if (where.isEmpty()) {
      return true;
    }
    return ((List<Object>) node.get("focus")).stream().anyMatch(path -> String.valueOf(path).contains(where));
  }

  @SuppressWarnings("unchecked")
  private static String describe(Map<String, Object> n) {
    List<Object> focus = (List<Object>) n.get("focus");
    return n.get("hypothesis") + " <" + String.join(",", focus.stream().map(String::valueOf).toList()) + ">";
  }

  static String summary(List<Run> runs, Options o) {
    StringBuilder b = new StringBuilder();
    b.append("# Diagnosis benchmark\n\n");
    b.append(String.format(Locale.ROOT, "Each program ran %d s before `bottlenose search --pid N --budget B --max-time %ds"
        + " --json`; %d repetition(s).%n%n", o.lead, o.maxTime, o.reps));
    for (double budget : o.budgets) {
      if (runs.stream().noneMatch(r -> r.budget == budget)) {
        continue;
      }
      b.append("## Budget ").append(label(budget)).append("\n\n");
      b.append("| program | part | right why | right where | s to located | in the findings | also true | target CPU before → during |\n");
      b.append("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
      for (Run r : runs.stream().filter(r -> r.budget == budget).toList()) {
        b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %.2f → %.2f |%n", r.program.id(),
            r.program.part().label,
            r.program.idle() ? (r.found.isEmpty() ? "nothing true" : "FALSE POSITIVE") : yes(r.rightWhy),
            r.program.idle() ? "–" : yes(r.located), Double.isNaN(r.locatedSeconds) ? "–"
                : String.format(Locale.ROOT, "%.1f", r.locatedSeconds),
            r.program.idle() ? r.findings + " findings" : r.findingRank == 0 ? "**no** (" + r.findings + " findings)"
                : "#" + r.findingRank + " of " + r.findings,
            r.extra.isEmpty() ? "–" : r.extra.size() + ": " + String.join("; ", r.extra.subList(0, Math.min(3, r.extra.size())))
                + (r.extra.size() > 3 ? "; …" : ""),
            r.cpuBefore, r.cpuDuring));
      }
      for (Part part : Part.values()) {
        List<Run> of = runs.stream().filter(r -> r.budget == budget && r.program.part() == part).toList();
        if (of.isEmpty()) {
          continue;
        }
        long right = of.stream().filter(Run::right).count();
        List<Double> times = of.stream().filter(r -> r.located).map(Run::locatedSeconds).toList();
        b.append(String.format(Locale.ROOT, "%n%s: %d of %d right; median seconds to the located verdict %s%n",
            part.heading, right, of.size(),
            times.isEmpty() ? "–" : String.format(Locale.ROOT, "%.1f", Stats.of(times).median())));
      }
      b.append('\n');
    }
    return b.toString();
  }

  private static String yes(boolean b) {
    return b ? "yes" : "**no**";
  }

  private static String line(Run r) {
    return String.join("\t", r.program.id(), r.program.part().name().toLowerCase(Locale.ROOT), label(r.budget),
        Integer.toString(r.rep), Boolean.toString(r.rightWhy), Boolean.toString(r.located),
        String.format(Locale.ROOT, "%.1f", r.locatedSeconds), Integer.toString(r.findingRank), Integer.toString(r.findings),
        String.join("; ", r.found), String.join("; ", r.extra),
        String.format(Locale.ROOT, "%.3f", r.cpuBefore), String.format(Locale.ROOT, "%.3f", r.cpuDuring),
        Integer.toString(r.exit), String.valueOf(r.endReason)) + "\n";
  }

  static String label(double budget) {
    return String.format(Locale.ROOT, "%.0f%%", budget * 100);
  }

  /**
   * {@code bottlenose search --pid N --budget B --max-time T --data DIR} as the launcher runs it (the service's
   * jar, with the JVM options the tool's processes run with); a list the caller may add options to.
   */
  static List<String> searchCommand(long pid, double budget, String maxTime, Path data) {
    return searchCommand(pid, budget, maxTime, data, List.of());
  }

  /** As {@link #searchCommand(long, double, String, Path)}, the command's JVM given {@code jvmOptions} too. */
  static List<String> searchCommand(long pid, double budget, String maxTime, Path data, List<String> jvmOptions) {
    return webCommand(jvmOptions, "search", "--pid", Long.toString(pid), "--budget",
        String.format(Locale.ROOT, "%.4f", budget), "--max-time", maxTime, "--data", data.toString());
  }

  /** The service jar's command {@code args}, its JVM run as the launcher runs it and given {@code jvmOptions} too. */
  static List<String> webCommand(List<String> jvmOptions, String... args) {
    List<String> command = new ArrayList<>(List.of(java()));
    command.addAll(dev.bottlenose.web.cluster.Daemons.JVM_OPTIONS);
    command.addAll(jvmOptions);
    command.addAll(dev.bottlenose.cli.ClassArchive.jvmOptions(jar("web")));
    command.addAll(List.of("-Dbottlenose.daemon.jar=" + jar("daemon"), "-jar", jar("web").toString()));
    command.addAll(List.of(args));
    return command;
  }

  static String java() {
    return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
  }

  static Path jar(String module) {
    Path jar = Paths.get(System.getProperty("bottlenose." + module + ".jar",
        module + "/target/bottlenose-" + module + "-all.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(module + " jar not built: " + jar.toAbsolutePath());
    }
    return jar.toAbsolutePath().normalize();
  }

  /** Reads the program's output to its end, keeping the last lines (what it said if it died). */
  private static void drain(BufferedReader out, java.util.Deque<String> last) {
    try {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        synchronized (last) {
          last.addLast(line);
          if (last.size() > 20) {
            last.removeFirst();
          }
        }
      }
    } catch (IOException e) {
      // the program ended
    }
  }

  /** The process's CPU seconds, or NaN once it has exited. */
  private static double cpuSeconds(long pid) {
    try {
      return ProcCpu.processSeconds(pid);
    } catch (IllegalStateException e) {
      return Double.NaN;
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }

  record Options(List<Double> budgets, int reps, List<String> programs, int maxTime, int lead, Path out) {
    static Options parse(String[] args) {
      List<Double> budgets = List.of(0.01, 0.05);
      int reps = 1;
      List<String> programs = List.of();
      int maxTime = 60;
      int lead = 4;
      Path out = Paths.get("tests/target/bench-diagnosis");
      for (int i = 0; i < args.length; i++) {
        String value = i + 1 < args.length ? args[i + 1] : null;
        switch (args[i]) {
          case "--budgets" -> budgets = Arrays.stream(value.split(",")).map(Double::parseDouble).toList();
          case "--reps" -> reps = Integer.parseInt(value);
          case "--programs" -> programs = List.of(value.split(","));
          case "--max-time" -> maxTime = Integer.parseInt(value);
          case "--lead" -> lead = Integer.parseInt(value);
          case "--out" -> out = Paths.get(value);
          default -> throw new IllegalArgumentException("unknown option " + args[i] + "; see tests/bench-diagnosis.sh");
        }
        i++;
      }
      DiagnosisSuite.select(programs);
      return new Options(budgets, reps, programs, maxTime, lead, out);
    }
  }
}
