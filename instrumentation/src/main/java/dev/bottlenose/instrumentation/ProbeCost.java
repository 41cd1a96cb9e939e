package dev.bottlenose.instrumentation;

/**
 * What the probes themselves cost so far: probe executions, those executions times the calibrated
 * cost of each kind ({@code probeNanos}), and the time spent retransforming ({@code retransformNanos}).
 */
public record ProbeCost(long executions, long probeNanos, long retransformNanos) {}
