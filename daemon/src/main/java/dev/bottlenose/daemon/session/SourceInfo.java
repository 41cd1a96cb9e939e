package dev.bottlenose.daemon.session;

import java.util.LinkedHashMap;
import java.util.Map;

/** A source this session watches: the agent's id, what it counts, who asked and since when. */
public record SourceInfo(long sourceId, Map<String, Object> source, String askedBy, long sinceMillis) {

  public SourceInfo {
    source = Map.copyOf(source);
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("sourceId", sourceId);
    m.put("source", new LinkedHashMap<>(source));
    m.put("askedBy", askedBy);
    m.put("sinceMillis", sinceMillis);
    return m;
  }
}
