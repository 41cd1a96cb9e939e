package dev.bottlenose.daemon.session;

import java.util.LinkedHashMap;
import java.util.Map;

/** A probe this session inserted: where, what, who asked, since when, and what inserting it cost. */
public record ProbeInfo(long probeId, String method, String kind, String callee, String askedBy, long sinceMillis,
    long retransformNanos) {

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probeId", probeId);
    m.put("method", method);
    m.put("kind", kind);
    if (callee != null) {
      m.put("callee", callee);
    }
    m.put("askedBy", askedBy);
    m.put("sinceMillis", sinceMillis);
    m.put("retransformNanos", retransformNanos);
    return m;
  }
}
