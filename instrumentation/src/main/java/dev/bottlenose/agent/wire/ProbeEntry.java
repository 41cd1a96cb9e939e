package dev.bottlenose.agent.wire;

import dev.bottlenose.instrumentation.ProbeKind;
import dev.bottlenose.model.MethodRef;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One probe woven in the target, by any session, as the {@code ledger} lists it: its method, kind, callee
 * ({@code call_site} only; written as null otherwise), the session that asked ({@code daemon-1234#2}) and since when.
 */
public record ProbeEntry(long probeId, MethodRef method, ProbeKind kind, MethodRef callee, String requester,
    long sinceMillis) {
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probeId", probeId);
    m.put("method", method.toPath().toString());
    m.put("kind", kind.word());
    m.put("callee", callee == null ? null : callee.toPath().toString());
    m.put("requester", requester);
    m.put("sinceMillis", sinceMillis);
    return m;
  }

  public static ProbeEntry fromMap(Map<String, ?> m) {
    return new ProbeEntry(Fields.number(m, "probeId"), Fields.method(m, "method", true), Fields.kind(m, "kind"),
        Fields.method(m, "callee", false), Fields.text(m, "requester", ""), Fields.number(m, "sinceMillis", 0));
  }
}
