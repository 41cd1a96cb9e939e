package dev.bottlenose.model;

import java.util.EnumMap;
import java.util.Map;

/**
 * One resource per hierarchy; a hierarchy not named is at its root (unconstrained). Text form:
 * {@code </Code/com.acme/Sim/step()V, /Threads/main>}; {@code <>} is the whole program.
 *
 * <p>{@link #parse} also accepts a bare single path, roots (meaning unconstrained) and whitespace
 * around items; {@link #toString} writes the canonical form, non-root paths in hierarchy order.
 */
public final class Focus {
  public static final Focus WHOLE_PROGRAM = new Focus(new EnumMap<>(Hierarchy.class));

  private final EnumMap<Hierarchy, ResourcePath> constrained;
  /** The text form, made once: a search sorts and compares its foci by it at every step. */
  private String text;
  private int hash;

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
    return parse(text, 0, text.length());
  }

  /** Parses {@code input[from, to)}; errors name positions in the whole {@code input}. */
  static Focus parse(String input, int from, int to) {
    int start = PathSyntax.skipWhitespace(input, from, to);
    int end = PathSyntax.trimEnd(input, start, to);
    if (start < end && input.charAt(start) == '/') {
      return of(PathSyntax.parse(input, start, end));
    }
    if (start == end || input.charAt(start) != '<') {
      throw new PathSyntaxException(input, start, "expected '<' starting a focus or '/' starting a resource path");
    }
    int close = end - 1;
    if (close == start || input.charAt(close) != '>' || PathSyntax.isEscaped(input, start + 1, close)) {
      throw new PathSyntaxException(input, end, "expected '>' closing the focus");
    }
    return parseItems(input, start + 1, close);
  }

  private static Focus parseItems(String input, int from, int close) {
    EnumMap<Hierarchy, ResourcePath> m = new EnumMap<>(Hierarchy.class);
    if (PathSyntax.skipWhitespace(input, from, close) == close) {
      return WHOLE_PROGRAM;
    }
    int itemStart = from;
    int i = from;
    while (i < close) {
      char c = input.charAt(i);
      if (c == ',') {
        addItem(input, itemStart, i, m);
        itemStart = i + 1;
      }
      i += c == '\\' ? 2 : 1;
    }
    addItem(input, itemStart, close, m);
    m.values().removeIf(ResourcePath::isRoot);
    return new Focus(m);
  }

  private static void addItem(String input, int from, int to, EnumMap<Hierarchy, ResourcePath> m) {
    int start = PathSyntax.skipWhitespace(input, from, to);
    int end = PathSyntax.trimEnd(input, start, to);
    if (start == end) {
      throw new PathSyntaxException(input, start, "expected a resource path");
    }
    ResourcePath p = PathSyntax.parse(input, start, end);
    ResourcePath before = m.get(p.hierarchy());
    if (before != null) {
      throw new PathSyntaxException(
          input, start, "second path in " + p.hierarchy().root() + " after " + before + "; a focus has one path per hierarchy");
    }
    m.put(p.hierarchy(), p);
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
    int h = hash;
    if (h == 0) {
      h = constrained.hashCode();
      hash = h;
    }
    return h;
  }

  /** The canonical text form, e.g. {@code </Code/com.acme/Sim/step()V, /Threads/main>}. */
  @Override
  public String toString() {
    String t = text;
    if (t == null) {
      StringBuilder sb = new StringBuilder("<");
      for (ResourcePath p : constrained.values()) {
        sb.append(sb.length() == 1 ? "" : ", ").append(p);
      }
      t = sb.append('>').toString();
      text = t;
    }
    return t;
  }
}
