package dev.bottlenose.model;

import java.util.List;

/**
 * The name of one resource: a hierarchy and the segments below its root, e.g.
 * {@code /Code/com.acme/Sim$Inner/step(I)V}. Immutable, value-equal, ordered.
 *
 * <p>Text form (grammar and escaping in resource-model/README.md): {@code /Root(/segment)*}; a
 * backslash escapes the next character; the third segment of a {@code /Code} path may end in a JVM
 * method descriptor whose {@code /} and {@code ;} are literal; after {@code /IO/file/} the rest of
 * the text is one segment with literal {@code /}; the empty segment is written {@code ""}.
 */
public final class ResourcePath implements Comparable<ResourcePath> {
  private final Hierarchy hierarchy;
  private final List<String> segments;
  private String text;
  private int hash;

  private ResourcePath(Hierarchy hierarchy, List<String> segments) {
    this.hierarchy = hierarchy;
    this.segments = List.copyOf(segments);
    if (hierarchy == Hierarchy.IO && this.segments.size() > 2 && "file".equals(this.segments.get(0))) {
      throw new IllegalArgumentException("an /IO/file path has one segment (the file path) after 'file': " + this.segments);
    }
  }

  /** A path from its parts; segments are raw (unescaped) names. */
  public static ResourcePath of(Hierarchy hierarchy, String... segments) {
    return new ResourcePath(hierarchy, List.of(segments));
  }

  /** A path from its parts; segments are raw (unescaped) names. */
  public static ResourcePath of(Hierarchy hierarchy, List<String> segments) {
    return new ResourcePath(hierarchy, segments);
  }

  /** Parses the canonical text form; throws {@link PathSyntaxException} naming the position. */
  public static ResourcePath parse(String text) {
    return PathSyntax.parse(text, 0, text.length());
  }

  public Hierarchy hierarchy() {
    return hierarchy;
  }

  /** The raw segment names below the root. */
  public List<String> segments() {
    return segments;
  }

  public int depth() {
    return segments.size();
  }

  public boolean isRoot() {
    return segments.isEmpty();
  }

  /** Whether this names a method ({@code /Code/package/Class/method}) or something inside one. */
  public boolean isMethod() {
    return hierarchy == Hierarchy.CODE && segments.size() >= 3;
  }

  /** The last segment, or the root name for a root. */
  public String name() {
    return segments.isEmpty() ? hierarchy.rootName() : segments.get(segments.size() - 1);
  }

  /** The parent path; the root's parent is null. */
  public ResourcePath parent() {
    return isRoot() ? null : new ResourcePath(hierarchy, segments.subList(0, segments.size() - 1));
  }

  public ResourcePath child(String rawSegment) {
    java.util.ArrayList<String> s = new java.util.ArrayList<>(segments);
    s.add(rawSegment);
    return new ResourcePath(hierarchy, s);
  }

  /** True if {@code other} is this path or lies below it. */
  public boolean contains(ResourcePath other) {
    return other.hierarchy == hierarchy
        && other.segments.size() >= segments.size()
        && other.segments.subList(0, segments.size()).equals(segments);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResourcePath p && p.hierarchy == hierarchy && p.segments.equals(segments);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = hierarchy.ordinal() * 31 + segments.hashCode();
      hash = h;
    }
    return h;
  }

  @Override
  public int compareTo(ResourcePath o) {
    int c = hierarchy.compareTo(o.hierarchy);
    for (int i = 0; c == 0 && i < Math.min(segments.size(), o.segments.size()); i++) {
      c = segments.get(i).compareTo(o.segments.get(i));
    }
    return c != 0 ? c : Integer.compare(segments.size(), o.segments.size());
  }

  /** The canonical text form, which {@link #parse} reads back to an equal path. */
  @Override
  public String toString() {
    String t = text;
    if (t == null) {
      t = PathSyntax.write(hierarchy, segments);
      text = t;
    }
    return t;
  }
}
