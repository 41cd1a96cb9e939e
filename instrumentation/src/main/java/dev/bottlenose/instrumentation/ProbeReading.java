package dev.bottlenose.instrumentation;

import java.util.Map;

/**
 * Cumulative values of one active probe since it was inserted: {@code count} (calls, call-site
 * calls, creations or monitor entries), {@code nanos} (time measured, 0 for pure counters),
 * {@code bytes} (allocation probes, where sizes are known) and, for allocation probes, the count and
 * bytes per created type (binary class name, arrays as {@code int[]}).
 */
public record ProbeReading(long probeId, ProbeKind kind, long count, long nanos, long bytes,
    Map<String, Long> countByType, Map<String, Long> bytesByType) {}
