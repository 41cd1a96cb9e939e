package dev.bottlenose.agent.wire;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A watched source as {@code watch} names it: an event word and the optional filters {@code code} (a
 * constraint), {@code thread} (a {@code /Threads} path), {@code form}, {@code type} (an allocated type),
 * {@code resource} (a {@code /SyncObjects} or {@code /IO} path) and {@code period} (a {@code cpu_sample}'s
 * sampling period in milliseconds); null when not given. Read here for the shape of each field; what the event
 * and its filters may be together is checked by the agent's {@code sources.SourceRules}. PROTOCOL.md, "Watched
 * sources".
 */
public record SourceSpec(String event, String code, String thread, String form, String type, String resource,
    Long periodMillis) {
  /** The fields a source may have, in the order they are written. */
  public static final List<String> FIELDS = List.of("event", "code", "thread", "form", "type", "resource", "period");
  /** The sampling periods a {@code cpu_sample} source may ask for, in milliseconds. */
  public static final long MIN_PERIOD_MILLIS = 1;
  public static final long MAX_PERIOD_MILLIS = 1000;

  public SourceSpec {
    if (event == null) {
      throw new WireException("event", null, "source needs an event (an event word such as cpu_sample)");
    }
    if (periodMillis != null && (periodMillis < MIN_PERIOD_MILLIS || periodMillis > MAX_PERIOD_MILLIS)) {
      throw new WireException("period", periodMillis, "period " + periodMillis + " ms is out of range ("
          + MIN_PERIOD_MILLIS + " to " + MAX_PERIOD_MILLIS + " ms)");
    }
  }

  /** A source of {@code event} with no filter. */
  public static SourceSpec of(String event) {
    return new SourceSpec(event, null, null, null, null, null, null);
  }

  /** This source with a sampling period ({@code null}: none). */
  public SourceSpec withPeriod(Long millis) {
    return new SourceSpec(event, code, thread, form, type, resource, millis);
  }

  /** The source as it is sent: only the fields it has. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("event", event);
    putIf(m, "code", code);
    putIf(m, "thread", thread);
    putIf(m, "form", form);
    putIf(m, "type", type);
    putIf(m, "resource", resource);
    putIf(m, "period", periodMillis);
    return m;
  }

  private static void putIf(Map<String, Object> m, String key, Object value) {
    if (value != null) {
      m.put(key, value);
    }
  }

  /**
   * Reads a source; a field set to null counts as absent. A value that is not an object, an unknown field, a
   * text field that is not a string or a period that is not a whole number of milliseconds in range throws
   * naming the field and its value.
   */
  public static SourceSpec fromMap(Object value) {
    if (!(value instanceof Map<?, ?> raw)) {
      throw new WireException("source", value, "source must be an object {\"event\":…, \"code\":…, \"thread\":…,"
          + " \"form\":…}, not " + value);
    }
    for (Object key : raw.keySet()) {
      if (!FIELDS.contains(String.valueOf(key))) {
        throw new WireException(String.valueOf(key), raw.get(key), "unknown field '" + key + "' in source (" + key + ": " + raw.get(key) + "; known: "
            + String.join(", ", FIELDS) + ")");
      }
    }
    @SuppressWarnings("unchecked")
    Map<String, ?> m = (Map<String, ?>) raw;
    return new SourceSpec(Fields.text(m, "event", null), Fields.text(m, "code", null), Fields.text(m, "thread", null),
        Fields.text(m, "form", null), Fields.text(m, "type", null), Fields.text(m, "resource", null), period(m.get("period")));
  }

  private static Long period(Object v) {
    if (v == null) {
      return null;
    }
    if (!(v instanceof Number n) || n.doubleValue() != n.longValue()) {
      throw new WireException("period", v, "period must be a whole number of milliseconds, not " + v);
    }
    return n.longValue();
  }
}
