package dev.bottlenose.daemon.session;

import java.lang.management.ManagementFactory;

/** This process's CPU time: what the daemon itself takes from the machine its target runs on. */
final class OwnCpu {
  private OwnCpu() {}

  /** The daemon process's CPU time in nanoseconds, -1 when the JVM cannot tell. */
  static long nanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }
}
