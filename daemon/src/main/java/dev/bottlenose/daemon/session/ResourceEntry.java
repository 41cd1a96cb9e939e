package dev.bottlenose.daemon.session;

import dev.bottlenose.agent.wire.Fields;
import dev.bottlenose.model.ResourcePath;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** One resource as the agent described it: path, kind word and string attributes. */
public record ResourceEntry(ResourcePath path, String kind, Map<String, String> attributes) {

  public ResourceEntry {
    attributes = Collections.unmodifiableMap(new TreeMap<>(attributes));
  }

  static ResourceEntry fromJson(Map<String, Object> m) {
    Map<String, String> attributes = new TreeMap<>();
    Fields.mapOr(m, "attributes").forEach((k, v) -> attributes.put(k, String.valueOf(v)));
    return new ResourceEntry(ResourcePath.parse(Fields.textOr(m, "path")), Fields.textOr(m, "kind"), attributes);
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("path", path.toString());
    m.put("kind", kind);
    m.put("attributes", new TreeMap<>(attributes));
    return m;
  }
}
