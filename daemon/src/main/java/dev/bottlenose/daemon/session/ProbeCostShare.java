package dev.bottlenose.daemon.session;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What measuring cost the target in one interval: the probes' own time (executions times their
 * calibrated cost) and the agent's CPU time, against the target process's CPU time
 * ({@code processCpuNanos} -1 when unknown). Retransformation runs on an agent thread, so its CPU is
 * already in {@code agentCpuNanos}; {@code retransformNanos} (wall time) is shown beside, not added.
 * {@code sideCpuNanos} is the CPU time of the VM Thread and the JIT compiler threads (-1 when unknown):
 * the safepoints, deoptimisation and recompilation that inserting and removing probes cause, but also the
 * program's own; it is not in the total, a reader compares it with its resting level.
 * {@code eventNanos} is what the JFR events recorded only for watched sources cost the program's threads that
 * committed them ({@code ProbePlan.WATCHED_EVENT_NANOS} apiece, a stack walk; {@code
 * ProbePlan.WATCHED_STACKLESS_EVENT_NANOS} for one recorded without its stack): like a probe's execution,
 * it is spent on an application thread, where the agent's CPU time does not see it. {@code ioCalls} is the
 * target's read and write system calls in the interval (-1 when unknown): not a cost, what recording an I/O
 * event per call would cost. {@code daemonCpuNanos} is the daemon process's own CPU time in the interval (-1 when
 * unknown): paid on the target's machine, not in the target. {@code toolJitNanos} is what the target's JIT spent
 * in the interval compiling on the tool's behalf (its own code, classes its probes changed, and what the attach
 * threw away; -1 when unknown), from the durations of the compilations the reader has seen: part of {@code
 * sideCpuNanos}, not in the total.
 */
public record ProbeCostShare(long probeNanos, long agentCpuNanos, long retransformNanos, long processCpuNanos,
    long sideCpuNanos, long eventNanos, long ioCalls, long daemonCpuNanos, long toolJitNanos) {

  public long totalNanos() {
    return probeNanos + agentCpuNanos + eventNanos;
  }

  /** The cost as a fraction of the process's CPU time; NaN when that is unknown. */
  public double fraction() {
    if (processCpuNanos < 0) {
      return Double.NaN;
    }
    return processCpuNanos == 0 ? 0 : (double) totalNanos() / processCpuNanos;
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probeNanos", probeNanos);
    m.put("agentCpuNanos", agentCpuNanos);
    m.put("eventNanos", eventNanos);
    m.put("retransformNanos", retransformNanos);
    m.put("processCpuNanos", processCpuNanos);
    if (sideCpuNanos >= 0) {
      m.put("sideCpuNanos", sideCpuNanos);
    }
    if (ioCalls >= 0) {
      m.put("ioCalls", ioCalls);
    }
    if (daemonCpuNanos >= 0) {
      m.put("daemonCpuNanos", daemonCpuNanos);
    }
    if (toolJitNanos >= 0) {
      m.put("toolJitNanos", toolJitNanos);
    }
    double f = fraction();
    m.put("fraction", Double.isNaN(f) ? null : f);
    return m;
  }
}
