package dev.bottlenose.model;

import java.util.Map;

/**
 * One discovered resource: its path, a kind word ({@code package}, {@code class}, {@code method},
 * {@code thread}, {@code monitor}, {@code type}, {@code file}, {@code socket}, {@code gc}, …) and
 * string attributes (e.g. {@code state=RUNNABLE}, {@code unloaded=true}, {@code count=12}).
 */
public record Resource(ResourcePath path, String kind, Map<String, String> attributes) {
  /**
   * The attribute ({@code tool=true}) on the tool's own resources in the target, the agent's threads and
   * their pool: shown to users, never searched (a search would be measuring the tool).
   */
  public static final String TOOL = "tool";

  public Resource {
    java.util.Objects.requireNonNull(path, "path");
    java.util.Objects.requireNonNull(kind, "kind");
    attributes = Map.copyOf(attributes);
  }

  public static Resource of(ResourcePath path, String kind) {
    return new Resource(path, kind, Map.of());
  }
}
