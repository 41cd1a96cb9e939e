package dev.bottlenose.agent.wire;

import dev.bottlenose.instrumentation.ProbeCost;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer to {@code read}, every total cumulative: the agent's {@code nanoTime}, every probe's
 * {@link Reading} (every session's), what the probes and retransformations cost, the CPU time of the agent's
 * threads and of the whole process, the VM's totals since the agent started ({@code gcCount}, {@code jitNanos},
 * …; one the JVM cannot give is absent), and the period JFR really samples at now. A total the agent cannot give
 * is -1 and absent on the wire. PROTOCOL.md, "read".
 */
public record ReadReply(long nanoTime, List<Reading> readings, ProbeCost cost, long agentCpuNanos, long processCpuNanos,
    Map<String, Long> vm, long samplePeriodNanos) {
  public ReadReply {
    readings = List.copyOf(readings);
    cost = cost == null ? new ProbeCost(0, 0, 0) : cost;
    vm = Map.copyOf(vm);
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("nanoTime", nanoTime);
    List<Object> items = new ArrayList<>(readings.size());
    readings.forEach(r -> items.add(r.toMap()));
    m.put("readings", items);
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("executions", cost.executions());
    c.put("probeNanos", cost.probeNanos());
    c.put("retransformNanos", cost.retransformNanos());
    m.put("cost", c);
    if (agentCpuNanos >= 0) {
      m.put("agentCpuNanos", agentCpuNanos);
    }
    if (processCpuNanos >= 0) {
      m.put("processCpuNanos", processCpuNanos);
    }
    m.put("vm", new LinkedHashMap<>(vm));
    if (samplePeriodNanos >= 0) {
      m.put("samplePeriodNanos", samplePeriodNanos);
    }
    return m;
  }

  /** Reads the answer; {@code nanoTime} must be there, an absent total is -1 (or empty), a malformed one throws naming it. */
  public static ReadReply fromMap(Map<String, ?> m) {
    List<?> items = Reading.list(m, "readings");
    List<Reading> readings = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      readings.add(Reading.item(items.get(i), "readings", i));
    }
    Map<String, Long> c = Reading.numbers(m, "cost");
    ProbeCost cost = new ProbeCost(c.getOrDefault("executions", 0L), c.getOrDefault("probeNanos", 0L),
        c.getOrDefault("retransformNanos", 0L));
    return new ReadReply(Fields.number(m, "nanoTime"), readings, cost, Fields.number(m, "agentCpuNanos", -1),
        Fields.number(m, "processCpuNanos", -1), Reading.numbers(m, "vm"), Fields.number(m, "samplePeriodNanos", -1));
  }
}
