package dev.bottlenose.bus;

import java.lang.management.ManagementFactory;

/**
 * This process's CPU time: what a tool's process (a daemon, a search command, the service) takes from the machine
 * the target runs on, which the search reports beside its budget.
 */
public final class OwnCpu {
  private OwnCpu() {}

  /** This process's CPU time in nanoseconds since it started, -1 when the JVM cannot tell. */
  public static long nanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }
}
