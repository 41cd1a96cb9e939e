package dev.bottlenose.agent.wire;

import dev.bottlenose.model.ResourcePath;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code resources} request: the resource at {@code path} (null: every root, written {@code /}) and its
 * descendants to {@code depth} levels (negative: all). PROTOCOL.md, "resources".
 */
public record Resources(ResourcePath path, int depth) {
  public static final String OP = "resources";

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("path", path == null ? "/" : path.toString());
    m.put("depth", (long) depth);
    return m;
  }

  /** Reads the request; {@code path} defaults to every root, {@code depth} to 1. */
  public static Resources fromMap(Map<String, ?> m) {
    String text = Fields.text(m, "path", "/");
    long depth = Fields.number(m, "depth", 1);
    if (depth != (int) depth) {
      throw new WireException("depth", depth, "depth must be a whole number of levels, not " + depth);
    }
    return new Resources("/".equals(text) ? null : Fields.path("path", text), (int) depth);
  }
}
