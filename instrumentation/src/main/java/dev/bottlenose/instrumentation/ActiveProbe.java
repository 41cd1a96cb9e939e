package dev.bottlenose.instrumentation;

import dev.bottlenose.model.MethodRef;

/**
 * One probe as the manager and the weaver know it: the resolved method (descriptor always set),
 * its kind, the callee of a call-site probe, its slot (allocation probes: one slot per site, in
 * {@link #sites}) and who asked.
 */
final class ActiveProbe {
  final long id;
  final MethodRef method;
  final ProbeKind kind;
  final MethodRef callee;
  final String requester;
  final long sinceEpochMillis;
  final int slot;
  final AllocationSites sites;
  /** Executions already priced into {@link #pricedNanos}, at the calibration of the time (the manager's lock). */
  long pricedExecutions;
  double pricedNanos;

  ActiveProbe(long id, MethodRef method, ProbeKind kind, MethodRef callee, String requester, int slot, AllocationSites sites) {
    this.id = id;
    this.method = method;
    this.kind = kind;
    this.callee = callee;
    this.requester = requester;
    this.sinceEpochMillis = System.currentTimeMillis();
    this.slot = slot;
    this.sites = sites;
  }

  boolean isIn(String methodName, String descriptor) {
    return method.methodName().equals(methodName) && method.descriptor().equals(descriptor);
  }

  LedgerEntry toLedgerEntry() {
    return new LedgerEntry(id, method, kind, callee, requester, sinceEpochMillis);
  }
}
