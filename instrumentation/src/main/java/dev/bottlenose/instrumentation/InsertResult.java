package dev.bottlenose.instrumentation;

import dev.bottlenose.model.MethodRef;

/** A probe now active: its id, the exact method it is in, and how long the retransformation took. */
public record InsertResult(long probeId, MethodRef method, long retransformNanos) {}
