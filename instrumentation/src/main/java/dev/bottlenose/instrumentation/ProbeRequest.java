package dev.bottlenose.instrumentation;

import dev.bottlenose.model.MethodRef;

/**
 * One probe to weave: into {@code method} (descriptor may be null when the name has exactly one
 * overload), of {@code kind}; {@code callee} only for {@link ProbeKind#CALL_SITE} (its descriptor may
 * be null to match every overload); {@code requester} names who asked, for the ledger.
 */
public record ProbeRequest(MethodRef method, ProbeKind kind, MethodRef callee, String requester) {
  public ProbeRequest {
    if (method == null || kind == null) {
      throw new IllegalArgumentException("method and kind are required");
    }
    if ((kind == ProbeKind.CALL_SITE) != (callee != null)) {
      throw new IllegalArgumentException("a callee is required for call_site probes and only for them");
    }
    requester = requester == null ? "unknown" : requester;
  }
}
