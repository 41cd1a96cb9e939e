package dev.bottlenose.daemon.session;

import dev.bottlenose.agent.wire.ReadReply;
import java.util.List;
import java.util.Map;

/**
 * What one sample reads, all cumulative: the agent's answer to {@code read}, and what the daemon adds to it: its
 * watched sources' totals counted from the target's JFR repository ({@code sourceId}, {@code count}, {@code nanos},
 * {@code bytes}, {@code throughMillis}), the events JFR recorded only because a source watches their type (0
 * without a repository) and how many of them without a stack trace, the CPU time of the target's VM threads the daemon charges to the tool (-1 when
 * unknown), the target's read and write system calls ({@code ioCalls}, -1 when unknown), the daemon's own
 * process's CPU time ({@code daemonCpuNanos}, -1 when unknown), and how long the target's JIT compiled on the
 * tool's behalf ({@code toolJitNanos}, {@code SourceCounter.toolJitNanos}) and in all ({@code jitNanos}, {@code
 * SourceCounter.jitNanos}), the compilations' durations (-1 without a repository).
 */
record Totals(ReadReply agent, List<Map<String, Object>> sources, long sourceEvents, long stacklessSourceEvents,
    long sideCpuNanos, long ioCalls, long daemonCpuNanos, long toolJitNanos, long jitNanos) {
  Totals {
    sources = List.copyOf(sources);
  }
}
