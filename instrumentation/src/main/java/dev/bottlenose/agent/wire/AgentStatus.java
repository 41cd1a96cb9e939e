package dev.bottlenose.agent.wire;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer to {@code status}: errors the probe runtime swallowed, open sessions, probes woven (every
 * session's), the asking session's requester, and, where the JVM has JFR, every watched source and the
 * recording's state ({@code running}, {@code stopped}, {@code unavailable: …}); the bytes the agent's threads
 * allocated where the JVM counts them. What the agent cannot give is null (a number -1) and absent on the wire.
 */
public record AgentStatus(long suppressedErrors, long sessions, long probes, String requester, List<SourceEntry> sources,
    String jfr, long bytesAllocatedByAgentThreads) {
  public AgentStatus {
    sources = sources == null ? null : List.copyOf(sources);
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("suppressedErrors", suppressedErrors);
    m.put("sessions", sessions);
    m.put("probes", probes);
    m.put("requester", requester);
    if (sources != null) {
      m.put("sources", LedgerReply.maps(sources, SourceEntry::toMap));
    }
    if (jfr != null) {
      m.put("jfr", jfr);
    }
    if (bytesAllocatedByAgentThreads >= 0) {
      m.put("bytesAllocatedByAgentThreads", bytesAllocatedByAgentThreads);
    }
    return m;
  }

  public static AgentStatus fromMap(Map<String, ?> m) {
    return new AgentStatus(Fields.number(m, "suppressedErrors", 0), Fields.number(m, "sessions", 0),
        Fields.number(m, "probes", 0), Fields.text(m, "requester", ""),
        m.get("sources") == null ? null : LedgerReply.items(m, "sources", SourceEntry::fromMap),
        Fields.text(m, "jfr", null), Fields.number(m, "bytesAllocatedByAgentThreads", -1));
  }
}
