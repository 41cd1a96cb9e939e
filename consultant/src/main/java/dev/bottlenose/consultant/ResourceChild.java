package dev.bottlenose.consultant;

import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;

/**
 * A resource one step more specific than {@code parent} in its hierarchy, and how: {@code contains}
 * (package → class → method, pool → thread, type → site, …) or {@code calls} (a callee in the call graph).
 * {@code samples} is how many of the target's recent execution samples had the child on the stack (for a
 * callee: went through the call), or {@link #UNKNOWN} when nothing sampled the program.
 */
public record ResourceChild(ResourcePath parent, ResourcePath child, String relation, long samples) {
  public static final String CONTAINS = "contains";
  public static final String CALLS = "calls";
  public static final long UNKNOWN = -1;

  public ResourceChild(ResourcePath parent, ResourcePath child, String relation) {
    this(parent, child, relation, UNKNOWN);
  }

  public Hierarchy hierarchy() {
    return parent.hierarchy();
  }

  /** True when the program was sampled and never ran this child's code. */
  public boolean unsampled() {
    return samples == 0;
  }
}
