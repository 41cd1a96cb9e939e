package dev.bottlenose.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class CalibrationTest {
  @Test
  void measuresACallAndAnAllocationInAFewMillisecondsOfCpu() {
    long cpu0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    Calibration c = Calibration.measure();
    long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0;
    assertThat(c.virtualCallNanos()).isBetween(1L, 1_000L);
    assertThat(c.allocationNanos()).isBetween(1L, 10_000L);
    assertThat(cpu).as("CPU nanos").isLessThan(60_000_000L);
  }
}
