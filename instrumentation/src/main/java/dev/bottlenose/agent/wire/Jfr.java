package dev.bottlenose.agent.wire;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code jfr} request: a daemon's digest of the JFR events discovery needs, per kind a list of tuples, one per
 * event ({@code daemon.jfr.DiscoveryEvents} writes them, {@code agent.discovery.JfrDigest} applies them). A
 * tuple's fields are read where it is applied, and a malformed one is skipped there. With it, the thresholds the
 * daemon asks discovery's contention events to be recorded from ({@code thresholds}: event name → nanoseconds; the
 * agent holds each within its bounds, {@code agent.discovery.DiscoverySettings#settings(Map)}). PROTOCOL.md, "jfr".
 */
public record Jfr(Map<String, List<List<?>>> kinds, Map<String, Long> thresholds) {
  public static final String OP = "jfr";
  public static final String THRESHOLDS = "thresholds";
  public static final String MONITORS = "monitors";
  public static final String LOCKS = "locks";
  public static final String ALLOCATIONS = "allocations";
  public static final String FILES = "files";
  public static final String SOCKETS = "sockets";
  public static final String GC = "gc";
  public static final String COMPILATIONS = "compilations";
  public static final String VM_OPERATIONS = "vmOperations";
  public static final String DEOPTIMIZATIONS = "deoptimizations";
  public static final String PINNED = "pinned";
  /** Every kind, in the order they are written. */
  public static final List<String> KINDS = List.of(MONITORS, LOCKS, ALLOCATIONS, FILES, SOCKETS, GC, COMPILATIONS,
      VM_OPERATIONS, DEOPTIMIZATIONS, PINNED);

  public Jfr {
    Map<String, List<List<?>>> copy = new LinkedHashMap<>();
    kinds.forEach((kind, tuples) -> {
      if (!KINDS.contains(kind)) {
        throw new WireException("kinds", kind, "unknown digest kind '" + kind + "' (known: " + String.join(", ", KINDS)
            + ")");
      }
      copy.put(kind, List.copyOf(tuples));
    });
    kinds = java.util.Collections.unmodifiableMap(copy);
    thresholds = Map.copyOf(thresholds);
  }

  /** A digest that asks for no thresholds. */
  public Jfr(Map<String, List<List<?>>> kinds) {
    this(kinds, Map.of());
  }

  /** The tuples of one kind, empty when the digest has none. */
  public List<List<?>> tuples(String kind) {
    return kinds.getOrDefault(kind, List.of());
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>(kinds);
    if (!thresholds.isEmpty()) {
      m.put(THRESHOLDS, new LinkedHashMap<>(thresholds));
    }
    return m;
  }

  /**
   * Reads the digest: every known kind present must be a list of lists, and {@code thresholds}, when there, an
   * object of whole non-negative numbers (other fields, such as the frame's {@code op}, are not the digest's).
   */
  public static Jfr fromMap(Map<String, ?> m) {
    Map<String, List<List<?>>> kinds = new LinkedHashMap<>();
    for (String kind : KINDS) {
      Object v = m.get(kind);
      if (v == null) {
        continue;
      }
      if (!(v instanceof List<?> items)) {
        throw new WireException(kind, v, kind + " must be a list of tuples, not " + v);
      }
      List<List<?>> tuples = new ArrayList<>(items.size());
      for (int i = 0; i < items.size(); i++) {
        if (!(items.get(i) instanceof List<?> tuple)) {
          throw new WireException(kind + "[" + i + "]", items.get(i), kind + "[" + i + "] must be a tuple (a list), not "
              + items.get(i));
        }
        tuples.add(tuple);
      }
      kinds.put(kind, tuples);
    }
    Object t = m.get(THRESHOLDS);
    if (t != null && !(t instanceof Map<?, ?>)) {
      throw new WireException(THRESHOLDS, t, "thresholds must be an object of event names and nanoseconds, not " + t);
    }
    Map<String, Long> thresholds = new LinkedHashMap<>();
    if (t != null) {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) t).entrySet()) {
        String field = THRESHOLDS + "." + e.getKey();
        if (!(e.getValue() instanceof Long || e.getValue() instanceof Integer) || ((Number) e.getValue()).longValue() < 0) {
          throw new WireException(field, e.getValue(), field + " must be a whole number of nanoseconds, not "
              + e.getValue());
        }
        thresholds.put(String.valueOf(e.getKey()), ((Number) e.getValue()).longValue());
      }
    }
    return new Jfr(kinds, thresholds);
  }
}
