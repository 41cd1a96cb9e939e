package dev.bottlenose.agent.wire;

import dev.bottlenose.instrumentation.ProbeKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One probe's cumulative counters in a {@code read} answer: executions, nanoseconds and bytes, and for an
 * allocation probe the counts and bytes per allocated type (empty for other kinds). PROTOCOL.md, "reading".
 */
public record Reading(long probeId, ProbeKind kind, long count, long nanos, long bytes, Map<String, Long> countByType,
    Map<String, Long> bytesByType) {
  public Reading {
    countByType = countByType == null ? Map.of() : Map.copyOf(countByType);
    bytesByType = bytesByType == null ? Map.of() : Map.copyOf(bytesByType);
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probeId", probeId);
    m.put("kind", kind.word());
    m.put("count", count);
    m.put("nanos", nanos);
    m.put("bytes", bytes);
    m.put("countByType", new LinkedHashMap<>(countByType));
    m.put("bytesByType", new LinkedHashMap<>(bytesByType));
    return m;
  }

  /** Reads a reading; a missing total is 0, a missing per-type map empty. */
  public static Reading fromMap(Map<String, ?> m) {
    return new Reading(Fields.number(m, "probeId"), Fields.kind(m, "kind"), Fields.number(m, "count", 0),
        Fields.number(m, "nanos", 0), Fields.number(m, "bytes", 0), numbers(m, "countByType"), numbers(m, "bytesByType"));
  }

  /** Item {@code position} of a list of readings. */
  static Reading item(Object item, String list, int position) {
    if (!(item instanceof Map<?, ?> m)) {
      throw new WireException(list + "[" + position + "]", item, list + "[" + position + "] must be an object, not "
          + item);
    }
    @SuppressWarnings("unchecked")
    Map<String, ?> fields = (Map<String, ?>) m;
    return fromMap(fields);
  }

  /** A map of names to whole numbers; a value that is not one throws naming it ({@code vm.gcCount}). */
  static Map<String, Long> numbers(Map<String, ?> m, String field) {
    Object v = m.get(field);
    if (v == null) {
      return Map.of();
    }
    if (!(v instanceof Map<?, ?> raw)) {
      throw new WireException(field, v, field + " must be an object of numbers, not " + v);
    }
    Map<String, Long> out = new LinkedHashMap<>();
    raw.forEach((k, n) -> {
      if (!(n instanceof Long || n instanceof Integer)) {
        throw new WireException(field + "." + k, n, field + "." + k + " must be an integer, not " + n);
      }
      out.put(String.valueOf(k), ((Number) n).longValue());
    });
    return out;
  }

  static List<?> list(Map<String, ?> m, String field) {
    Object v = m.get(field);
    if (v == null) {
      return List.of();
    }
    if (!(v instanceof List<?> items)) {
      throw new WireException(field, v, field + " must be a list, not " + v);
    }
    return items;
  }
}
