package dev.bottlenose.instrumentation;

import dev.bottlenose.model.MethodRef;

/** One probe woven right now: where, what, since when (epoch millis) and who asked. */
public record LedgerEntry(long probeId, MethodRef method, ProbeKind kind, MethodRef callee, String requester, long sinceEpochMillis) {}
