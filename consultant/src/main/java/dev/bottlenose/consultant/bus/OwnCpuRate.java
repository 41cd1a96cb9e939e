package dev.bottlenose.consultant.bus;

import dev.bottlenose.bus.OwnCpu;

/**
 * This process's CPU use in ns per second, smoothed over the calls (one per sample): what the process running
 * a search takes from the machine, which is the target's when it is a {@code search} command.
 */
final class OwnCpuRate {
  private long lastCpuNanos = -1;
  private long lastWallNanos;
  private double rate = Double.NaN;

  /** The rate since the previous call, smoothed; NaN at the first call or when the JVM cannot tell. */
  synchronized double nanosPerSecond() {
    long cpu = OwnCpu.nanos();
    long wall = System.nanoTime();
    if (cpu >= 0 && lastCpuNanos >= 0 && wall > lastWallNanos) {
      double r = (cpu - lastCpuNanos) * 1e9 / (wall - lastWallNanos);
      rate = Double.isNaN(rate) ? r : 0.7 * rate + 0.3 * r;
    }
    lastCpuNanos = cpu;
    lastWallNanos = wall;
    return rate;
  }
}
