package dev.bottlenose.daemon.channel;

import java.util.List;
import java.util.Map;

/** Typed reads of the loosely typed maps and lists that {@code Json} produces. */
public final class Wire {
  private Wire() {}

  public static String text(Map<String, ?> m, String key) {
    Object v = m.get(key);
    return v == null ? "" : v.toString();
  }

  public static long longOf(Map<String, ?> m, String key, long absent) {
    Object v = m.get(key);
    return v instanceof Number n ? n.longValue() : absent;
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> map(Map<String, ?> m, String key) {
    Object v = m.get(key);
    return v instanceof Map ? (Map<String, Object>) v : Map.of();
  }

  @SuppressWarnings("unchecked")
  public static List<Map<String, Object>> maps(Map<String, ?> m, String key) {
    Object v = m.get(key);
    return v instanceof List ? (List<Map<String, Object>>) v : List.of();
  }
}
