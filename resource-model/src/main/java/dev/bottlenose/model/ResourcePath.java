package dev.bottlenose.model;

import java.util.List;

/**
 * The name of one resource: a hierarchy and the segments below its root, e.g.
 * {@code /Code/com.acme/Sim$Inner/step(I)V}. Immutable, value-equal, ordered.
 *
 * <p>SKELETON: the syntax and its escaping are specified in resource-model/README.md.
 */
public final class ResourcePath implements Comparable<ResourcePath> {
  private final Hierarchy hierarchy;
  private final List<String> segments;

  private ResourcePath(Hierarchy hierarchy, List<String> segments) {
    this.hierarchy = hierarchy;
    this.segments = List.copyOf(segments);
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
    throw new PathSyntaxException(text, 0, "parser not written yet");
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
    return hierarchy.hashCode() * 31 + segments.hashCode();
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
    StringBuilder sb = new StringBuilder("/").append(hierarchy.rootName());
    for (String s : segments) {
      sb.append('/').append(s);
    }
    return sb.toString();
  }
}
