package dev.bottlenose.consultant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MeasurementsTest {
  private final Measurements measurements = new Measurements(null);

  @Test
  void theToolsJitIsUnknownUntilASampleTellsIt() {
    assertTrue(Double.isNaN(measurements.toolJitSeconds()));
    assertTrue(Double.isNaN(measurements.toolJitShare()));
    // a daemon that cannot tell (an older agent's samples, a target without JFR) says -1: still unknown
    measurements.toolJit(1_000, -1, 500_000_000L);
    measurements.toolJit(1_000, 20_000_000L, -1);
    assertTrue(Double.isNaN(measurements.toolJitSeconds()));
  }

  @Test
  void theToolsJitIsSummedOverSamplesAndSharedOverTheTargetsCpuInTheSameSamples() {
    measurements.toolJit(1_000, 300_000_000L, 1_000_000_000L);
    measurements.toolJit(2_000, 0, 1_000_000_000L);
    // a sample that cannot tell adds neither part, so the share stays over the same samples
    measurements.toolJit(3_000, -1, 1_000_000_000L);
    measurements.toolJit(4_000, 100_000_000L, 2_000_000_000L);
    assertEquals(0.4, measurements.toolJitSeconds(), 1e-12);
    assertEquals(0.1, measurements.toolJitShare(), 1e-12);
  }

  @Test
  void noTargetCpuYetLeavesTheShareUnknownButTheSecondsKnown() {
    measurements.toolJit(1_000, 50_000_000L, 0);
    assertEquals(0.05, measurements.toolJitSeconds(), 1e-12);
    assertTrue(Double.isNaN(measurements.toolJitShare()));
  }
}
