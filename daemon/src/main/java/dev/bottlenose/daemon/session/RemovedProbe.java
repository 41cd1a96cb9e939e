package dev.bottlenose.daemon.session;

import dev.bottlenose.agent.wire.Removed;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A probe this session took out: the agent's answer ({@link Removed}: its class, what the retransformation took,
 * whether the class has its original bytes again) and the method the session had it in, which the agent's
 * answer does not repeat.
 */
public record RemovedProbe(String method, Removed removed) {
  public RemovedProbe {
    method = method == null ? "" : method;
  }

  public long probeId() {
    return removed.probeId();
  }

  public String className() {
    return removed.className();
  }

  public long retransformNanos() {
    return removed.retransformNanos();
  }

  public boolean classRestored() {
    return removed.classRestored();
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probeId", probeId());
    m.put("method", method);
    m.putAll(removed.toMap());
    return m;
  }
}
