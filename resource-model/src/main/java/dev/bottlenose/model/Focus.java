package dev.bottlenose.model;

import java.util.EnumMap;
import java.util.Map;

/**
 * One resource per hierarchy; a hierarchy not named is at its root (unconstrained). Text form:
 * {@code </Code/com.acme/Sim/step()V, /Threads/main>}; {@code <>} is the whole program.
 *
 * <p>SKELETON: parse and canonical text to be written (see resource-model/README.md).
 */
public final class Focus {
  public static final Focus WHOLE_PROGRAM = new Focus(new EnumMap<>(Hierarchy.class));

  private final EnumMap<Hierarchy, ResourcePath> constrained;

  private Focus(EnumMap<Hierarchy, ResourcePath> constrained) {
    this.constrained = constrained;
  }

  /** A focus made of these paths; at most one per hierarchy, roots mean unconstrained. */
  public static Focus of(ResourcePath... paths) {
    EnumMap<Hierarchy, ResourcePath> m = new EnumMap<>(Hierarchy.class);
    for (ResourcePath p : paths) {
      if (m.containsKey(p.hierarchy())) {
        throw new IllegalArgumentException("two paths in " + p.hierarchy().root() + ": " + m.get(p.hierarchy()) + ", " + p);
      }
      if (!p.isRoot()) {
        m.put(p.hierarchy(), p);
      }
    }
    return new Focus(m);
  }

  public static Focus parse(String text) {
    throw new PathSyntaxException(text, 0, "parser not written yet");
  }

  /** The path for a hierarchy: the constrained resource, or the hierarchy's root. */
  public ResourcePath get(Hierarchy h) {
    ResourcePath p = constrained.get(h);
    return p != null ? p : h.root();
  }

  /** The non-root paths, in hierarchy order. */
  public Map<Hierarchy, ResourcePath> constrained() {
    return java.util.Collections.unmodifiableMap(constrained);
  }

  /** This focus with {@code path} replacing whatever its hierarchy had. */
  public Focus with(ResourcePath path) {
    EnumMap<Hierarchy, ResourcePath> m = new EnumMap<>(constrained);
    if (path.isRoot()) {
      m.remove(path.hierarchy());
    } else {
      m.put(path.hierarchy(), path);
    }
    return new Focus(m);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Focus f && f.constrained.equals(constrained);
  }

  @Override
  public int hashCode() {
    return constrained.hashCode();
  }
}
