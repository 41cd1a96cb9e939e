package dev.bottlenose.agent.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The {@code removeMany} request: probes by id (any session's), taken out with one retransformation. */
public record RemoveMany(List<Long> probeIds) {
  public static final String OP = "removeMany";

  public RemoveMany {
    probeIds = List.copyOf(probeIds);
  }

  public Map<String, Object> toMap() {
    return Map.of("probeIds", probeIds);
  }

  public static RemoveMany fromMap(Map<String, ?> m) {
    List<?> items = Fields.list(m, "probeIds", "removeMany needs probeIds: [probeId, …]");
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      if (!(items.get(i) instanceof Long id)) {
        throw new WireException("probeIds[" + i + "]", items.get(i), "probeIds[" + i
            + "] must be an integer probe id, not " + items.get(i));
      }
      ids.add(id);
    }
    return new RemoveMany(ids);
  }
}
