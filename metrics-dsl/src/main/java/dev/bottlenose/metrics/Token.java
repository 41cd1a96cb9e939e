package dev.bottlenose.metrics;

/** One lexical token: its kind, its text (a string's unescaped value), and where it is. */
record Token(Kind kind, String text, int start, int end) {

  enum Kind {
    IDENT,
    NUMBER,
    STRING,
    PATH,
    PUNCT,
    EOF,
    /** Text that is no token; {@code text} says what is wrong. */
    BAD
  }

  boolean is(String word) {
    return (kind == Kind.IDENT || kind == Kind.PUNCT) && text.equals(word);
  }

  /** How the token reads in an error message: {@code 'total'}, {@code end of file}. */
  String describe() {
    switch (kind) {
      case EOF:
        return "end of file";
      case STRING:
        return "string \"" + shorten(text) + "\"";
      case BAD:
        return "bad text";
      default:
        return "'" + shorten(text) + "'";
    }
  }

  private static String shorten(String s) {
    return s.length() > 40 ? s.substring(0, 37) + "..." : s;
  }
}
