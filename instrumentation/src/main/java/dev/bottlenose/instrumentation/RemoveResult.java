package dev.bottlenose.instrumentation;

/**
 * A probe removed: its id, its class, the retransformation time, and whether the class is back to
 * its original bytes (true when no other probe remains in that class).
 */
public record RemoveResult(long probeId, String className, long retransformNanos, boolean classRestored) {}
