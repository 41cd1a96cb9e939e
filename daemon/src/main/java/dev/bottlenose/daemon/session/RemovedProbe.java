package dev.bottlenose.daemon.session;

import java.util.LinkedHashMap;
import java.util.Map;

/** A probe taken out: its class, what the retransformation took, and whether the class has its original bytes again. */
public record RemovedProbe(long probeId, String method, String className, long retransformNanos,
    boolean classRestored) {

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probeId", probeId);
    m.put("method", method);
    m.put("className", className);
    m.put("retransformNanos", retransformNanos);
    m.put("classRestored", classRestored);
    return m;
  }
}
