package dev.bottlenose.model;

/**
 * Reads a JVM method descriptor ({@code (Ljava/lang/String;[I)V}) out of path text, resolving
 * backslash escapes as it goes. On failure {@link #problem()} says what was expected and {@link
 * #position()} where.
 */
final class DescriptorReader {
  private final String text;
  private final int end;
  private final StringBuilder out;
  private int pos;
  private String problem;

  /** Reads from {@code text[start]}, which must be {@code '('}, up to at most {@code end}. */
  DescriptorReader(String text, int start, int end, StringBuilder out) {
    this.text = text;
    this.pos = start;
    this.end = end;
    this.out = out;
  }

  /** True if {@code raw} from {@code start} to its end is exactly one method descriptor. */
  static boolean isDescriptor(String raw, int start) {
    StringBuilder escaped = new StringBuilder(raw.length() - start + 4);
    for (int i = start; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '\\') {
        escaped.append('\\');
      }
      escaped.append(c);
    }
    String text = escaped.toString();
    DescriptorReader r = new DescriptorReader(text, 0, text.length(), new StringBuilder());
    return r.read() && r.position() == text.length();
  }

  /** Reads one method descriptor; true on success, with {@link #position()} just after it. */
  boolean read() {
    expect('(', "'(' starting the method descriptor");
    while (problem == null && peek() != ')') {
      fieldType("a parameter type (B C D F I J S Z L [) or ')'");
    }
    expect(')', "')'");
    if (problem == null && peek() == 'V') {
      take();
    } else {
      fieldType("a return type (B C D F I J S Z L [ or V)");
    }
    return problem == null;
  }

  int position() {
    return pos;
  }

  String problem() {
    return problem;
  }

  private void fieldType(String expected) {
    if (problem != null) {
      return;
    }
    int c = peek();
    if (c == '[') {
      take();
      fieldType("an array element type (B C D F I J S Z L [)");
    } else if (c == 'L') {
      take();
      className();
    } else if (c >= 0 && "BCDFIJSZ".indexOf(c) >= 0) {
      take();
    } else {
      fail(expected);
    }
  }

  private void className() {
    if (peek() == ';') {
      fail("a class name after 'L'");
      return;
    }
    while (problem == null && peek() != ';') {
      if (peek() < 0) {
        fail("';' ending the class name");
        return;
      }
      take();
    }
    take();
  }

  private void expect(char c, String expected) {
    if (problem == null && peek() != c) {
      fail(expected);
    } else if (problem == null) {
      take();
    }
  }

  /** The next resolved character, or -1 at the end (or at a dangling backslash). */
  private int peek() {
    if (pos >= end) {
      return -1;
    }
    char c = text.charAt(pos);
    if (c != '\\') {
      return c;
    }
    return pos + 1 < end ? text.charAt(pos + 1) : -1;
  }

  private void take() {
    int width = text.charAt(pos) == '\\' ? 2 : 1;
    out.append(text.charAt(pos + width - 1));
    pos += width;
  }

  private void fail(String expected) {
    if (pos < end && text.charAt(pos) == '\\' && pos + 1 >= end) {
      problem = "dangling '\\' at end of path; expected a character after it";
      return;
    }
    String found = pos >= end ? "end of segment" : "'" + (char) peek() + "'";
    problem = "malformed method descriptor: expected " + expected + " but found " + found;
  }
}
