package dev.bottlenose.agent.discovery;

import dev.bottlenose.model.Resource;

/** One change of the resource tree. */
public record ResourceChange(Type type, Resource resource) {
  /** What happened to the resource. */
  public enum Type {
    ADDED,
    UPDATED,
    REMOVED
  }
}
