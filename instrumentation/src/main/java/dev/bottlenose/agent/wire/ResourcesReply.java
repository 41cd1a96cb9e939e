package dev.bottlenose.agent.wire;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer to {@code resources}: the resource asked for first, then its descendants, each as the resource model
 * writes it ({@code ModelJson}: {@code path}, {@code kind}, {@code attributes}).
 */
public record ResourcesReply(List<Map<String, Object>> resources) {
  public ResourcesReply {
    List<Map<String, Object>> copy = new ArrayList<>(resources.size());
    resources.forEach(r -> copy.add(Collections.unmodifiableMap(new LinkedHashMap<>(r))));
    resources = List.copyOf(copy);
  }

  public Map<String, Object> toMap() {
    return Map.of("resources", new ArrayList<Object>(resources));
  }

  /** Reads the answer; an item that is not an object, or has no text {@code path}, throws naming it ({@code resources[3].path}). */
  public static ResourcesReply fromMap(Map<String, ?> m) {
    return new ResourcesReply(LedgerReply.items(m, "resources", r -> {
      Fields.text(r, "path");
      @SuppressWarnings("unchecked")
      Map<String, Object> resource = (Map<String, Object>) r;
      return resource;
    }));
  }
}
