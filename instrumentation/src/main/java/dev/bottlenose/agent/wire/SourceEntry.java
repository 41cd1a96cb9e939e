package dev.bottlenose.agent.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/** One watched source in the target, by any session, as {@code ledger} and {@code status} list it: its id, the source, who asked and since when. */
public record SourceEntry(long sourceId, SourceSpec source, String requester, long sinceMillis) {
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("sourceId", sourceId);
    m.put("source", source.toMap());
    m.put("requester", requester);
    m.put("sinceMillis", sinceMillis);
    return m;
  }

  public static SourceEntry fromMap(Map<String, ?> m) {
    if (m.get("source") == null) {
      throw new WireException("source", null, "a source entry needs its source");
    }
    return new SourceEntry(Fields.number(m, "sourceId"), SourceSpec.fromMap(m.get("source")),
        Fields.text(m, "requester", ""), Fields.number(m, "sinceMillis", 0));
  }
}
