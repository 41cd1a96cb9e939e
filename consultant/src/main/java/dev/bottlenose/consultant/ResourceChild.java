package dev.bottlenose.consultant;

import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;

/**
 * A resource one step more specific than {@code parent} in its hierarchy, and how: {@code contains}
 * (package → class → method, pool → thread, type → site, …) or {@code calls} (a callee in the call graph).
 */
public record ResourceChild(ResourcePath parent, ResourcePath child, String relation) {
  public static final String CONTAINS = "contains";
  public static final String CALLS = "calls";

  public Hierarchy hierarchy() {
    return parent.hierarchy();
  }
}
