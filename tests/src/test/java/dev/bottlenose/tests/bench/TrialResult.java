package dev.bottlenose.tests.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One measured window of one workload JVM, with the tool ({@code budget} > 0) or without it ({@code budget}
 * NaN). CPU figures are seconds spent inside the window; {@code groups} splits the target's by thread group
 * ({@link ProcCpu#group}). The tool's own view of its cost ({@code reportedProbe}, {@code reportedAgent},
 * seconds) is what the daemon's samples said during the window. The {@code late*} figures cover the second
 * half of the window only, after the search's start-up. {@code controlCpuPerUnit} is the control twin's CPU
 * milliseconds per unit over the same window (NaN without a twin), {@code lateControlCpuPerUnit} over its
 * second half.
 */
record TrialResult(String workload, double budget, int rep, long startedAtMillis, double load1, double attachSeconds,
    double windowSeconds, long units, double cpuSeconds, Map<String, Double> groups, double daemonCpu,
    double consultantCpu, double reportedProbe, double reportedAgent, int searches, int nodes, int trueNodes,
    int maxTesting, double lateWindowSeconds, long lateUnits, double lateCpuSeconds, double controlCpuPerUnit,
    double lateControlCpuPerUnit) {
  static final List<String> GROUPS = List.of("app", "jit", "gc", "vm", "jfr", "agent", "other");

  boolean withTool() {
    return !Double.isNaN(budget);
  }

  /** Target CPU milliseconds per unit of work. */
  double cpuPerUnit() {
    return cpuSeconds * 1000 / units;
  }

  /** Target CPU milliseconds per unit of work in the second half of the window. */
  double lateCpuPerUnit() {
    return lateCpuSeconds * 1000 / lateUnits;
  }

  /** Units of work per wall-clock second. */
  double throughput() {
    return units / windowSeconds;
  }

  static String header() {
    List<String> h = new ArrayList<>(List.of("workload", "budget", "rep", "startedAtMillis", "load1", "attachSeconds",
        "windowSeconds", "units", "cpuSeconds"));
    GROUPS.forEach(g -> h.add("cpu_" + g));
    h.addAll(List.of("daemonCpu", "consultantCpu", "reportedProbe", "reportedAgent", "searches", "nodes", "trueNodes",
        "maxTesting", "lateWindowSeconds", "lateUnits", "lateCpuSeconds", "controlCpuPerUnit",
        "lateControlCpuPerUnit"));
    return String.join("\t", h);
  }

  String toTsv() {
    List<String> v = new ArrayList<>(List.of(workload, withTool() ? num(budget) : "none", Integer.toString(rep),
        Long.toString(startedAtMillis), num(load1), num(attachSeconds), num(windowSeconds), Long.toString(units),
        num(cpuSeconds)));
    GROUPS.forEach(g -> v.add(num(groups.getOrDefault(g, 0.0))));
    v.addAll(List.of(num(daemonCpu), num(consultantCpu), num(reportedProbe), num(reportedAgent),
        Integer.toString(searches), Integer.toString(nodes), Integer.toString(trueNodes), Integer.toString(maxTesting),
        num(lateWindowSeconds), Long.toString(lateUnits), num(lateCpuSeconds), num(controlCpuPerUnit),
        num(lateControlCpuPerUnit)));
    return String.join("\t", v);
  }

  static TrialResult fromTsv(String line) {
    String[] f = line.split("\t");
    Map<String, Double> groups = new java.util.HashMap<>();
    for (int i = 0; i < GROUPS.size(); i++) {
      groups.put(GROUPS.get(i), Double.parseDouble(f[9 + i]));
    }
    int k = 9 + GROUPS.size();
    return new TrialResult(f[0], f[1].equals("none") ? Double.NaN : Double.parseDouble(f[1]), Integer.parseInt(f[2]),
        Long.parseLong(f[3]), Double.parseDouble(f[4]), Double.parseDouble(f[5]), Double.parseDouble(f[6]),
        Long.parseLong(f[7]), Double.parseDouble(f[8]), groups, Double.parseDouble(f[k]), Double.parseDouble(f[k + 1]),
        Double.parseDouble(f[k + 2]), Double.parseDouble(f[k + 3]), Integer.parseInt(f[k + 4]),
        Integer.parseInt(f[k + 5]), Integer.parseInt(f[k + 6]), Integer.parseInt(f[k + 7]),
        Double.parseDouble(f[k + 8]), Long.parseLong(f[k + 9]), Double.parseDouble(f[k + 10]),
        f.length > k + 11 ? Double.parseDouble(f[k + 11]) : Double.NaN,
        f.length > k + 12 ? Double.parseDouble(f[k + 12]) : Double.NaN);
  }

  private static String num(double d) {
    return String.format(Locale.ROOT, "%.6f", d);
  }
}
