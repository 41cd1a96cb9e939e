package dev.bottlenose.model;

import java.util.Map;

/**
 * One discovered resource: its path, a kind word ({@code package}, {@code class}, {@code method},
 * {@code thread}, {@code monitor}, {@code type}, {@code file}, {@code socket}, {@code gc}, …) and
 * string attributes (e.g. {@code state=RUNNABLE}, {@code unloaded=true}, {@code count=12}).
 */
public record Resource(ResourcePath path, String kind, Map<String, String> attributes) {
  public Resource {
    java.util.Objects.requireNonNull(path, "path");
    java.util.Objects.requireNonNull(kind, "kind");
    attributes = Map.copyOf(attributes);
  }

  public static Resource of(ResourcePath path, String kind) {
    return new Resource(path, kind, Map.of());
  }
}
