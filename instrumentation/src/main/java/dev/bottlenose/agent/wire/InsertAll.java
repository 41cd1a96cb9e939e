package dev.bottlenose.agent.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code insertAll} request: probes to insert with one retransformation. Each item is read on its own
 * ({@link #item}), so a malformed one fails alone. PROTOCOL.md, "insertAll".
 */
public record InsertAll(List<ProbeSpec> probes) {
  public static final String OP = "insertAll";

  public InsertAll {
    probes = List.copyOf(probes);
  }

  public Map<String, Object> toMap() {
    List<Object> items = new ArrayList<>();
    probes.forEach(p -> items.add(p.toMap()));
    return Map.of("probes", items);
  }

  /** The request's items as sent, each to be read with {@link #item}. */
  public static List<?> items(Map<String, ?> m) {
    return Fields.list(m, "probes", "insertAll needs probes: [{\"method\":…, \"kind\":…, \"callee\":…}, …]");
  }

  /** Item {@code position} of {@code probes}. */
  public static ProbeSpec item(Object item, int position) {
    if (!(item instanceof Map<?, ?> m)) {
      throw new WireException("probes[" + position + "]", item, "probes[" + position
          + "] must be an object {\"method\":…, \"kind\":…}, not " + item);
    }
    @SuppressWarnings("unchecked")
    Map<String, ?> fields = (Map<String, ?>) m;
    return ProbeSpec.fromMap(fields);
  }

  /** Reads the whole request; the first malformed item throws. */
  public static InsertAll fromMap(Map<String, ?> m) {
    List<?> items = items(m);
    List<ProbeSpec> probes = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      probes.add(item(items.get(i), i));
    }
    return new InsertAll(probes);
  }
}
