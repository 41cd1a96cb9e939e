package dev.bottlenose.agent.wire;

import dev.bottlenose.instrumentation.ProbeKind;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.MethodRef;
import dev.bottlenose.model.ResourcePath;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Typed reads of a frame's fields, the one place both ends of the channel read them. The checked reads refuse a
 * missing or malformed field with a {@link WireException} naming the field and its value; the {@code …Or} reads
 * take a missing or malformed field as empty (for totals a peer may leave out).
 */
public final class Fields {
  private Fields() {}

  /** A text field that must be there. */
  public static String text(Map<String, ?> m, String field) {
    String s = text(m, field, null);
    if (s == null) {
      throw new WireException(field, null, "missing " + field + " (a string)");
    }
    return s;
  }

  /** A text field, or {@code otherwise} when absent. */
  public static String text(Map<String, ?> m, String field, String otherwise) {
    Object v = m.get(field);
    if (v == null) {
      return otherwise;
    }
    if (!(v instanceof String s)) {
      throw new WireException(field, v, field + " must be a string, not " + v);
    }
    return s;
  }

  /** A whole-number field that must be there. */
  public static long number(Map<String, ?> m, String field) {
    if (m.get(field) == null) {
      throw new WireException(field, null, "missing " + field + " (an integer)");
    }
    return number(m, field, 0);
  }

  /** A whole-number field, or {@code otherwise} when absent. */
  public static long number(Map<String, ?> m, String field, long otherwise) {
    Object v = m.get(field);
    if (v == null) {
      return otherwise;
    }
    if (!(v instanceof Long || v instanceof Integer)) {
      throw new WireException(field, v, field + " must be an integer, not " + v);
    }
    return ((Number) v).longValue();
  }

  /** A list field that must be there; {@code usage} says what it should hold when it is absent. */
  public static List<?> list(Map<String, ?> m, String field, String usage) {
    Object v = m.get(field);
    if (!(v instanceof List<?> items)) {
      throw new WireException(field, v, v == null ? usage : field + " must be a list, not " + v);
    }
    return items;
  }

  /** The resource path a text field holds. */
  public static ResourcePath path(String field, String text) {
    try {
      return ResourcePath.parse(text);
    } catch (IllegalArgumentException e) {
      throw new WireException(field, text, field + " is not a resource path: " + e.getMessage());
    }
  }

  /** The method a {@code /Code/<package>/<class>/<method>[descriptor]} field names; null when absent and not required. */
  public static MethodRef method(Map<String, ?> m, String field, boolean required) {
    String text = text(m, field, null);
    if (text == null) {
      if (required) {
        throw new WireException(field, null, "missing argument " + field + " (a /Code method path)");
      }
      return null;
    }
    ResourcePath path = path(field, text);
    if (path.hierarchy() != Hierarchy.CODE || path.depth() < 3) {
      throw new WireException(field, text, field + " " + path
          + " is not a method path: expected /Code/<package>/<class>/<method>[descriptor]");
    }
    return MethodRef.fromPath(path);
  }

  /** The probe kind a field names by its word. */
  public static ProbeKind kind(Map<String, ?> m, String field) {
    Object v = m.get(field);
    ProbeKind kind = v instanceof String word ? ProbeKind.byWord(word) : null;
    if (kind == null) {
      throw new WireException(field, v, "unknown probe kind '" + v + "' in " + field + " (known: "
          + Arrays.stream(ProbeKind.values()).map(ProbeKind::word).collect(Collectors.joining(", ")) + ")");
    }
    return kind;
  }

  /** A text field, or "" when absent (a non-text value as its text). */
  public static String textOr(Map<String, ?> m, String key) {
    Object v = m.get(key);
    return v == null ? "" : v.toString();
  }

  /** A number field, or {@code absent}. */
  public static long numberOr(Map<String, ?> m, String key, long absent) {
    Object v = m.get(key);
    return v instanceof Number n ? n.longValue() : absent;
  }

  /** An object field, or an empty map. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> mapOr(Map<String, ?> m, String key) {
    Object v = m.get(key);
    return v instanceof Map ? (Map<String, Object>) v : Map.of();
  }

  /** A list-of-objects field, or an empty list. */
  @SuppressWarnings("unchecked")
  public static List<Map<String, Object>> mapsOr(Map<String, ?> m, String key) {
    Object v = m.get(key);
    return v instanceof List ? (List<Map<String, Object>>) v : List.of();
  }
}
