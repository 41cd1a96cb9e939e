package dev.bottlenose.agent.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The answer to {@code ledger}: every probe woven in the target ({@code entries}) and every watched source, by every session. */
public record LedgerReply(List<ProbeEntry> entries, List<SourceEntry> sources) {
  public LedgerReply {
    entries = List.copyOf(entries);
    sources = List.copyOf(sources);
  }

  public Map<String, Object> toMap() {
    return Map.of("entries", maps(entries, ProbeEntry::toMap), "sources", maps(sources, SourceEntry::toMap));
  }

  /** Reads the answer; a missing list is empty, a malformed entry throws naming it ({@code entries[2].kind}). */
  public static LedgerReply fromMap(Map<String, ?> m) {
    return new LedgerReply(items(m, "entries", ProbeEntry::fromMap), items(m, "sources", SourceEntry::fromMap));
  }

  static <T> List<Object> maps(List<T> items, Function<T, Map<String, Object>> toMap) {
    List<Object> out = new ArrayList<>(items.size());
    items.forEach(i -> out.add(toMap.apply(i)));
    return out;
  }

  /** The items of a list of objects, each read with {@code read}; a refusal names the item ({@code sources[1].source}). */
  static <T> List<T> items(Map<String, ?> m, String field, Function<Map<String, ?>, T> read) {
    List<?> raw = Reading.list(m, field);
    List<T> out = new ArrayList<>(raw.size());
    for (int i = 0; i < raw.size(); i++) {
      String at = field + "[" + i + "]";
      if (!(raw.get(i) instanceof Map<?, ?> item)) {
        throw new WireException(at, raw.get(i), at + " must be an object, not " + raw.get(i));
      }
      @SuppressWarnings("unchecked")
      Map<String, ?> fields = (Map<String, ?>) item;
      try {
        out.add(read.apply(fields));
      } catch (WireException e) {
        throw new WireException(at + "." + e.field(), e.value(), at + ": " + e.getMessage());
      }
    }
    return out;
  }
}
