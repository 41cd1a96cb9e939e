package dev.bottlenose.model;

/** One change to a {@link ResourceTree}: a resource added, updated (kind or attributes) or removed. */
public record ResourceChange(Type type, Resource resource) {

  public enum Type {
    ADDED,
    UPDATED,
    REMOVED
  }

  public ResourcePath path() {
    return resource.path();
  }
}
