package dev.bottlenose.daemon.attach;

/** A Java version string such as {@code 17.0.15}, {@code 21}, {@code 25-ea} or {@code 1.8.0_392}. */
record JavaVersion(String text, int feature) {

  /** Parses the feature number; an unreadable text gives feature 0. */
  static JavaVersion parse(String text) {
    String t = text.trim();
    if (t.startsWith("1.")) {
      t = t.substring(2);
    }
    int end = 0;
    while (end < t.length() && Character.isDigit(t.charAt(end))) {
      end++;
    }
    return new JavaVersion(text.trim(), end == 0 ? 0 : Integer.parseInt(t.substring(0, end)));
  }

  @Override
  public String toString() {
    return text;
  }
}
