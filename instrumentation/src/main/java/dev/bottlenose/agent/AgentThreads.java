package dev.bottlenose.agent;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;

/** What the agent's own {@code bottlenose-*} threads have cost in memory. */
final class AgentThreads {
  /** Bytes the live agent threads have allocated so far, or -1 when the JVM does not count them. */
  static long allocatedBytes() {
    if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads)
        || !threads.isThreadAllocatedMemorySupported() || !threads.isThreadAllocatedMemoryEnabled()) {
      return -1;
    }
    long sum = 0;
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
      if (info != null && info.getThreadName().startsWith("bottlenose-")) {
        sum += Math.max(0, threads.getThreadAllocatedBytes(info.getThreadId()));
      }
    }
    return sum;
  }

  private AgentThreads() {}
}
