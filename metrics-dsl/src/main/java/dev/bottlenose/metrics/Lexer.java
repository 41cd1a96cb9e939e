package dev.bottlenose.metrics;

/**
 * Scans tokens on demand from any offset, so the parser can read a resource path where it expects one
 * ({@link #path}) and an ordinary token elsewhere ({@link #next}). {@code #} starts a comment to the end
 * of the line.
 */
final class Lexer {
  private static final String PUNCT = "{}(),:+-*/";
  private final String text;

  Lexer(String text) {
    this.text = text;
  }

  /** The next token at or after {@code offset}, skipping whitespace and comments. */
  Token next(int offset) {
    int i = skipBlank(offset);
    if (i >= text.length()) {
      return new Token(Token.Kind.EOF, "", text.length(), text.length());
    }
    char c = text.charAt(i);
    if (isIdentStart(c)) {
      int end = i + 1;
      while (end < text.length() && isIdentPart(text.charAt(end))) {
        end++;
      }
      return new Token(Token.Kind.IDENT, text.substring(i, end), i, end);
    }
    if (c >= '0' && c <= '9' || c == '.' && i + 1 < text.length() && isDigit(text.charAt(i + 1))) {
      return number(i);
    }
    if (c == '"') {
      return string(i);
    }
    if (PUNCT.indexOf(c) >= 0) {
      return new Token(Token.Kind.PUNCT, String.valueOf(c), i, i + 1);
    }
    int end = i + Character.charCount(text.codePointAt(i));
    return new Token(Token.Kind.BAD, "unexpected character '" + text.substring(i, end) + "'", i, end);
  }

  /**
   * A resource path (pattern) starting at {@code offset}, which holds '/': it runs to unescaped
   * whitespace, an unescaped ',' or an unescaped ')' that closes no '(' of its own.
   */
  Token path(int offset) {
    int i = offset;
    int depth = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '\\') {
        i = Math.min(i + 2, text.length());
        continue;
      }
      if (Character.isWhitespace(c) || c == ',' || c == ')' && depth == 0) {
        break;
      }
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      i++;
    }
    return new Token(Token.Kind.PATH, text.substring(offset, i), offset, i);
  }

  private int skipBlank(int offset) {
    int i = offset;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '#') {
        while (i < text.length() && text.charAt(i) != '\n') {
          i++;
        }
      } else if (Character.isWhitespace(c)) {
        i++;
      } else {
        break;
      }
    }
    return i;
  }

  private Token number(int start) {
    int i = digits(start);
    if (i < text.length() && text.charAt(i) == '.') {
      i = digits(i + 1);
    }
    if (i < text.length() && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
      int j = i + 1;
      if (j < text.length() && (text.charAt(j) == '+' || text.charAt(j) == '-')) {
        j++;
      }
      if (j >= text.length() || !isDigit(text.charAt(j))) {
        return new Token(Token.Kind.BAD, "expected digits in the exponent of a number", j, j);
      }
      i = digits(j);
    }
    if (i < text.length() && isIdentPart(text.charAt(i))) {
      return new Token(Token.Kind.BAD, "expected an operator or space after the number, found '" + text.charAt(i) + "'", i, i + 1);
    }
    return new Token(Token.Kind.NUMBER, text.substring(start, i), start, i);
  }

  private int digits(int from) {
    int i = from;
    while (i < text.length() && isDigit(text.charAt(i))) {
      i++;
    }
    return i;
  }

  private Token string(int start) {
    StringBuilder sb = new StringBuilder();
    int i = start + 1;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '"') {
        return new Token(Token.Kind.STRING, sb.toString(), start, i + 1);
      }
      if (c == '\n') {
        break;
      }
      if (c == '\\') {
        if (i + 1 >= text.length() || (text.charAt(i + 1) != '"' && text.charAt(i + 1) != '\\')) {
          return new Token(Token.Kind.BAD, "expected '\"' or '\\' after '\\' in a string", i, i + 1);
        }
        c = text.charAt(++i);
      }
      sb.append(c);
      i++;
    }
    return new Token(Token.Kind.BAD, "unterminated string; expected '\"' before the end of the line", start, i);
  }

  private static boolean isIdentStart(char c) {
    return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
  }

  private static boolean isIdentPart(char c) {
    return isIdentStart(c) || isDigit(c);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
