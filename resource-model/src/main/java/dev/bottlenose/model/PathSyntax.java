package dev.bottlenose.model;

import java.util.ArrayList;
import java.util.List;

/** The text form of resource paths: canonical writing and parsing (see resource-model/README.md). */
final class PathSyntax {
  static final String EMPTY_SEGMENT = "\"\"";
  private static final String ROOTS = rootList();

  /** How the text of one segment is read and written, from its place in the path. */
  enum Kind {
    PLAIN,
    /** The third segment of a /Code path: a method name and an optional JVM method descriptor. */
    METHOD,
    /** The segment after /IO/file: the rest of the text, with literal '/'. */
    FILE;

    static Kind of(Hierarchy h, int index, List<String> before) {
      if (h == Hierarchy.CODE && index == 2) {
        return METHOD;
      }
      if (h == Hierarchy.IO && index == 1 && "file".equals(before.get(0))) {
        return FILE;
      }
      return PLAIN;
    }
  }

  static String write(Hierarchy h, List<String> segments) {
    StringBuilder sb = new StringBuilder(16 + segments.size() * 16).append('/').append(h.rootName());
    for (int i = 0; i < segments.size(); i++) {
      sb.append('/');
      writeSegment(sb, segments.get(i), Kind.of(h, i, segments));
    }
    return sb.toString();
  }

  static void writeSegment(StringBuilder sb, String raw, Kind kind) {
    if (raw.isEmpty()) {
      sb.append(EMPTY_SEGMENT);
      return;
    }
    if (raw.equals(EMPTY_SEGMENT)) {
      sb.append("\\\"\"");
      return;
    }
    int paren = kind == Kind.METHOD ? raw.indexOf('(') : -1;
    int descriptor = paren >= 0 && DescriptorReader.isDescriptor(raw, paren) ? paren : raw.length();
    boolean[] unbalanced = unbalancedAngles(raw);
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (needsEscape(c, i, raw.length(), kind, i >= descriptor, unbalanced)) {
        sb.append('\\');
      }
      sb.append(c);
    }
  }

  private static boolean needsEscape(char c, int i, int length, Kind kind, boolean inDescriptor, boolean[] unbalanced) {
    switch (c) {
      case '\\':
      case ',':
        return true;
      case '/':
        return kind != Kind.FILE && !inDescriptor;
      case '(':
        return kind == Kind.METHOD && !inDescriptor;
      case '<':
      case '>':
        return unbalanced != null && unbalanced[i];
      default:
        return (i == 0 || i == length - 1) && Character.isWhitespace(c);
    }
  }

  /** Marks the angle brackets of {@code raw} that do not pair up, so the written ones always do. */
  private static boolean[] unbalancedAngles(String raw) {
    if (raw.indexOf('<') < 0 && raw.indexOf('>') < 0) {
      return null;
    }
    boolean[] unbalanced = new boolean[raw.length()];
    int[] open = new int[raw.length()];
    int top = 0;
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '<') {
        open[top++] = i;
      } else if (c == '>') {
        unbalanced[i] = top == 0;
        top = Math.max(0, top - 1);
      }
    }
    for (int k = 0; k < top; k++) {
      unbalanced[open[k]] = true;
    }
    return unbalanced;
  }

  /** Parses {@code input[from, to)} as one path; errors name positions in the whole {@code input}. */
  static ResourcePath parse(String input, int from, int to) {
    if (from >= to || input.charAt(from) != '/') {
      throw new PathSyntaxException(input, from, "expected '/' starting a resource path, one of " + ROOTS);
    }
    int rootEnd = indexOf(input, '/', from + 1, to);
    String root = input.substring(from + 1, rootEnd);
    Hierarchy h = Hierarchy.byRootName(root);
    if (h == null) {
      String what = root.isEmpty() ? "expected a hierarchy root" : "unknown hierarchy root '" + root + "'";
      throw new PathSyntaxException(input, from + 1, what + "; valid roots are " + ROOTS);
    }
    List<String> segments = new ArrayList<>();
    int pos = rootEnd;
    while (pos < to) {
      StringBuilder raw = new StringBuilder();
      int start = pos + 1;
      pos = readSegment(input, start, to, Kind.of(h, segments.size(), segments), raw);
      segments.add(raw.length() == 2 && input.startsWith(EMPTY_SEGMENT, start) && pos == start + 2 ? "" : raw.toString());
    }
    return ResourcePath.of(h, segments);
  }

  /** Reads one segment starting at {@code start}; returns the index of the '/' ending it, or {@code to}. */
  private static int readSegment(String input, int start, int to, Kind kind, StringBuilder raw) {
    int pos = start;
    boolean lastEscaped = false;
    while (pos < to) {
      char c = input.charAt(pos);
      if (c == '/' && kind != Kind.FILE) {
        break;
      }
      if (c == '(' && kind == Kind.METHOD) {
        pos = readDescriptor(input, pos, to, raw);
        lastEscaped = false;
        break;
      }
      lastEscaped = c == '\\';
      if (lastEscaped) {
        if (pos + 1 >= to) {
          throw new PathSyntaxException(input, pos, "dangling '\\' at end of path; expected a character after it");
        }
        c = input.charAt(++pos);
      }
      raw.append(c);
      pos++;
    }
    checkEdges(input, start, pos, lastEscaped);
    return pos;
  }

  private static int readDescriptor(String input, int paren, int to, StringBuilder raw) {
    DescriptorReader reader = new DescriptorReader(input, paren, to, raw);
    if (!reader.read()) {
      throw new PathSyntaxException(input, reader.position(), reader.problem());
    }
    int pos = reader.position();
    if (pos < to && input.charAt(pos) != '/') {
      throw new PathSyntaxException(input, pos, "expected '/' or the end of the path after the method descriptor");
    }
    return pos;
  }

  private static void checkEdges(String input, int start, int end, boolean lastEscaped) {
    if (start == end) {
      throw new PathSyntaxException(input, start, "empty segment; write an empty name as \"\"");
    }
    if (Character.isWhitespace(input.charAt(start))) {
      throw new PathSyntaxException(input, start, "whitespace at the start of a segment must be escaped as '\\ '");
    }
    if (!lastEscaped && Character.isWhitespace(input.charAt(end - 1))) {
      throw new PathSyntaxException(input, end - 1, "whitespace at the end of a segment must be escaped as '\\ '");
    }
  }

  /** The first index in {@code [from, to)} that is not whitespace, or {@code to}. */
  static int skipWhitespace(String s, int from, int to) {
    while (from < to && Character.isWhitespace(s.charAt(from))) {
      from++;
    }
    return from;
  }

  /**
   * The end of {@code s[from, to)} without its trailing unescaped whitespace; escapes are read from
   * {@code from}, so an escaped space ({@code \ }) at the end stays.
   */
  static int trimEnd(String s, int from, int to) {
    int end = from;
    int i = from;
    while (i < to) {
      char c = s.charAt(i);
      if (c == '\\') {
        i = Math.min(i + 2, to);
        end = i;
      } else {
        i++;
        end = Character.isWhitespace(c) ? end : i;
      }
    }
    return end;
  }

  /** True if the character at {@code at} is escaped, reading escapes from {@code from}. */
  static boolean isEscaped(String s, int from, int at) {
    int i = from;
    while (i < at) {
      i += s.charAt(i) == '\\' ? 2 : 1;
    }
    return i > at;
  }

  private static int indexOf(String s, char c, int from, int to) {
    int i = s.indexOf(c, from);
    return i < 0 || i > to ? to : i;
  }

  private static String rootList() {
    StringBuilder sb = new StringBuilder();
    for (Hierarchy h : Hierarchy.values()) {
      sb.append(sb.length() == 0 ? "" : ", ").append('/').append(h.rootName());
    }
    return sb.toString();
  }

  private PathSyntax() {}
}
