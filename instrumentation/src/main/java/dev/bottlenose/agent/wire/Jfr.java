package dev.bottlenose.agent.wire;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code jfr} request: a daemon's digest of the JFR events discovery needs, per kind a list of tuples, one per
 * event ({@code daemon.jfr.DiscoveryEvents} writes them, {@code agent.discovery.JfrDigest} applies them). A
 * tuple's fields are read where it is applied, and a malformed one is skipped there. PROTOCOL.md, "jfr".
 */
public record Jfr(Map<String, List<List<?>>> kinds) {
  public static final String OP = "jfr";
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
  }

  /** The tuples of one kind, empty when the digest has none. */
  public List<List<?>> tuples(String kind) {
    return kinds.getOrDefault(kind, List.of());
  }

  public Map<String, Object> toMap() {
    return new LinkedHashMap<>(kinds);
  }

  /** Reads the digest: every known kind present must be a list of lists (other fields, such as the frame's {@code op}, are not the digest's). */
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
    return new Jfr(kinds);
  }
}
