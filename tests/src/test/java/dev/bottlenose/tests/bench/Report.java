package dev.bottlenose.tests.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The markdown summary of a run. Each with-tool window is paired with the without-tool window just before it
 * (same workload, same repetition); slowdowns are per pair, then median and range over repetitions. When the
 * session had a control twin, each pair's CPU figures are corrected by the twin's change between the two
 * windows ({@link Pair#drift}): the machine's other load slows both JVMs alike, the tool only one.
 */
final class Report {
  private final List<TrialResult> results;

  Report(List<TrialResult> results) {
    this.results = results;
  }

  String markdown() {
    StringBuilder sb = new StringBuilder();
    sb.append("| workload | budget | CPU per unit, slowdown | its median's 95% interval | second half only")
        .append(" | uncorrected | twin's own change | throughput, slowdown | tool-reported cost | verdict |\n")
        .append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for (String workload : workloads()) {
      for (Map.Entry<Double, List<Pair>> e : byBudget(workload).entrySet()) {
        List<Pair> pairs = e.getValue();
        Stats cpu = Stats.of(pairs.stream().map(Pair::cpuSlowdown).toList());
        Stats late = Stats.of(pairs.stream().map(Pair::lateCpuSlowdown).toList());
        Stats thr = Stats.of(pairs.stream().map(Pair::throughputSlowdown).toList());
        Stats reported = Stats.of(pairs.stream().map(p -> (p.with.reportedProbe() + p.with.reportedAgent())
            / p.with.cpuSeconds()).toList());
        Stats raw = Stats.of(pairs.stream().map(Pair::uncorrectedCpuSlowdown).toList());
        Stats twin = Stats.of(pairs.stream().map(p -> 1 / p.drift() - 1).toList());
        sb.append(String.format("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", workload,
            label(e.getKey()), cpu.percent(), cpu.medianInterval(), late.percent(), raw.percent(), twin.percent(),
            thr.percent(), reported.percent(), verdict(e.getKey(), cpu)));
      }
    }
    sb.append("\nBaselines (without the tool) and where the extra CPU went (median over pairs, percent of the")
        .append(" baseline's CPU per unit):\n\n")
        .append("| workload | budget | n | CPU ms/unit without | with | units/s without | with | ");
    TrialResult.GROUPS.forEach(g -> sb.append("Δ ").append(g).append(" | "));
    sb.append("daemon CPU/s | consultant CPU/s | searches | nodes | max testing |\n|");
    sb.append(" --- |".repeat(2)).append(" ---: |".repeat(10 + TrialResult.GROUPS.size())).append('\n');
    for (String workload : workloads()) {
      for (Map.Entry<Double, List<Pair>> e : byBudget(workload).entrySet()) {
        sb.append(detailRow(workload, e.getKey(), e.getValue()));
      }
    }
    return sb.append(byPosition()).toString();
  }

  /** Slowdown by a window's place after the attach (0 = right after it), whatever its budget. */
  private String byPosition() {
    StringBuilder sb = new StringBuilder("\nCPU per unit slowdown by the window's place in its JVM (0 = the first")
        .append(" window after the attach), all budgets together:\n\n")
        .append("| workload | place | n | CPU per unit, slowdown | budgets in this place |\n| --- | ---: | ---: | ---: | --- |\n");
    for (String workload : workloads()) {
      Map<Integer, List<Pair>> places = new java.util.TreeMap<>();
      for (List<Pair> pairs : byBudget(workload).values()) {
        pairs.forEach(p -> places.computeIfAbsent(place(p.with), k -> new ArrayList<>()).add(p));
      }
      places.forEach((place, pairs) -> sb.append(String.format("| %s | %d | %d | %s | %s |%n", workload, place,
          pairs.size(), Stats.of(pairs.stream().map(Pair::cpuSlowdown).toList()).percent(),
          pairs.stream().map(p -> label(p.with.budget())).toList())));
    }
    return sb.toString();
  }

  private int place(TrialResult with) {
    int place = 0;
    for (TrialResult r : results) {
      if (r == with) {
        return place;
      }
      if (r.workload().equals(with.workload()) && r.rep() == with.rep() && r.withTool()) {
        place++;
      }
    }
    return place;
  }

  private String detailRow(String workload, double budget, List<Pair> pairs) {
    StringBuilder sb = new StringBuilder(String.format("| %s | %s | %d | %s | %s | %s | %s | ", workload,
        label(budget), pairs.size(), median(pairs, p -> p.without.cpuPerUnit(), "%.3f"),
        median(pairs, p -> p.with.cpuPerUnit(), "%.3f"), median(pairs, p -> p.without.throughput(), "%.0f"),
        median(pairs, p -> p.with.throughput(), "%.0f")));
    for (String g : TrialResult.GROUPS) {
      sb.append(median(pairs, p -> p.groupDelta(g) * 100, "%+.2f")).append(" | ");
    }
    sb.append(median(pairs, p -> p.with.daemonCpu() / p.with.windowSeconds(), "%.3f")).append(" | ")
        .append(median(pairs, p -> p.with.consultantCpu() / p.with.windowSeconds(), "%.3f")).append(" | ")
        .append(median(pairs, p -> p.with.searches(), "%.0f")).append(" | ")
        .append(median(pairs, p -> p.with.nodes(), "%.0f")).append(" | ")
        .append(median(pairs, p -> p.with.maxTesting(), "%.0f")).append(" |\n");
    return sb.toString();
  }

  private static String median(List<Pair> pairs, ToDoubleFunction<Pair> f, String format) {
    return String.format(format, Stats.of(pairs.stream().map(f::applyAsDouble).toList()).median());
  }

  private static String verdict(double budget, Stats cpu) {
    if (cpu.n() == 0) {
      return "no data";
    }
    if (budget < 0) {
      return "the attach's one-time aftermath (the window right after it, no search)";
    }
    if (budget == 0) {
      return "reference: attached, no search";
    }
    if (cpu.median() > budget) {
      return "not met";
    }
    return cpu.max() > budget ? "met (median; max over)" : "met";
  }

  /** A window's budget as the tables show it: {@code attach} for the window right after the attach. */
  static String label(double budget) {
    return budget < 0 ? "attach" : String.format("%.0f%%", budget * 100);
  }

  private List<String> workloads() {
    return results.stream().map(TrialResult::workload).distinct().toList();
  }

  /** Budget → its pairs, in budget order. */
  private Map<Double, List<Pair>> byBudget(String workload) {
    Map<Double, List<Pair>> out = new LinkedHashMap<>();
    TrialResult lastWithout = null;
    for (TrialResult r : results) {
      if (!r.workload().equals(workload)) {
        continue;
      }
      if (!r.withTool()) {
        lastWithout = r;
      } else if (lastWithout != null && lastWithout.rep() == r.rep()) {
        out.computeIfAbsent(r.budget(), b -> new ArrayList<>()).add(new Pair(lastWithout, r));
      }
    }
    Map<Double, List<Pair>> sorted = new LinkedHashMap<>();
    out.keySet().stream().sorted().forEach(b -> sorted.put(b, out.get(b)));
    return sorted;
  }

  /** A with-tool window and the without-tool window before it. */
  record Pair(TrialResult without, TrialResult with) {
    /**
     * What the machine did to CPU per unit between the two windows, as the control twin saw it: its CPU per
     * unit in the without window over that in the with window (1 without a twin). The with window's CPU
     * figures are multiplied by it.
     */
    double drift() {
      return ratio(without.controlCpuPerUnit(), with.controlCpuPerUnit());
    }

    private static double ratio(double without, double with) {
      return Double.isFinite(without) && Double.isFinite(with) && with > 0 ? without / with : 1;
    }

    double cpuSlowdown() {
      return with.cpuPerUnit() * drift() / without.cpuPerUnit() - 1;
    }

    double uncorrectedCpuSlowdown() {
      return with.cpuPerUnit() / without.cpuPerUnit() - 1;
    }

    double lateCpuSlowdown() {
      return with.lateCpuPerUnit() * ratio(without.lateControlCpuPerUnit(), with.lateControlCpuPerUnit())
          / without.lateCpuPerUnit() - 1;
    }

    double throughputSlowdown() {
      return without.throughput() / with.throughput() - 1;
    }

    /**
     * The change in one thread group's CPU per unit (the with window's corrected by {@link #drift}), as a
     * fraction of the baseline's total CPU per unit.
     */
    double groupDelta(String group) {
      double w = with.groups().getOrDefault(group, 0.0) / with.units() * drift();
      double wo = without.groups().getOrDefault(group, 0.0) / without.units();
      return (w - wo) / (without.cpuSeconds() / without.units());
    }
  }
}
