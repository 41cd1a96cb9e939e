package dev.bottlenose.model;

/**
 * The unit of measurement: a metric name and a focus. Text form: {@code (calls, </Code/com.acme/Sim/step()V>)}.
 * Metric names are {@code [A-Za-z_][A-Za-z0-9_]*}.
 */
public record MetricFocus(String metric, Focus focus) {

  public MetricFocus {
    if (!isMetricName(metric)) {
      throw new IllegalArgumentException("not a metric name (letters, digits, '_'; not starting with a digit): '" + metric + "'");
    }
    if (focus == null) {
      throw new IllegalArgumentException("focus is null");
    }
  }

  /** Parses {@code (metric, focus)}, whitespace allowed around the parts; throws {@link PathSyntaxException}. */
  public static MetricFocus parse(String text) {
    int start = PathSyntax.skipWhitespace(text, 0, text.length());
    int end = PathSyntax.trimEnd(text, start, text.length());
    if (start == end || text.charAt(start) != '(') {
      throw new PathSyntaxException(text, start, "expected '(' starting a metric-focus pair");
    }
    int nameStart = PathSyntax.skipWhitespace(text, start + 1, end);
    int nameEnd = nameStart;
    while (nameEnd < end && isNameChar(text.charAt(nameEnd), nameEnd == nameStart)) {
      nameEnd++;
    }
    if (nameEnd == nameStart) {
      throw new PathSyntaxException(text, nameStart, "expected a metric name ([A-Za-z_][A-Za-z0-9_]*)");
    }
    int comma = PathSyntax.skipWhitespace(text, nameEnd, end);
    if (comma == end || text.charAt(comma) != ',') {
      throw new PathSyntaxException(text, comma, "expected ',' after the metric name");
    }
    int close = end - 1;
    if (close <= comma || text.charAt(close) != ')' || PathSyntax.isEscaped(text, comma + 1, close)) {
      throw new PathSyntaxException(text, end, "expected ')' closing the metric-focus pair");
    }
    return new MetricFocus(text.substring(nameStart, nameEnd), Focus.parse(text, comma + 1, close));
  }

  static boolean isMetricName(String s) {
    if (s == null || s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (!isNameChar(s.charAt(i), i == 0)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isNameChar(char c, boolean first) {
    return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (!first && c >= '0' && c <= '9');
  }

  /** The canonical text form, e.g. {@code (calls, </Threads/main>)}. */
  @Override
  public String toString() {
    return "(" + metric + ", " + focus + ")";
  }
}
