package dev.bottlenose.metrics;

import java.util.List;

/**
 * A metric's unit as powers of three dimensions: counted things, seconds and bytes. {@code fraction}
 * and {@code ratio} are dimensionless (seconds per second is a fraction of time).
 */
record Units(int count, int seconds, int bytes) {
  static final List<String> WORDS = List.of("count", "bytes", "seconds", "s", "fraction", "ratio");
  static final Units NONE = new Units(0, 0, 0);
  static final Units COUNT = new Units(1, 0, 0);
  static final Units SECONDS = new Units(0, 1, 0);
  static final Units BYTES = new Units(0, 0, 1);

  static Units ofWord(String word) {
    switch (word) {
      case "count":
        return COUNT;
      case "bytes":
        return BYTES;
      case "seconds":
      case "s":
        return SECONDS;
      default:
        return NONE;
    }
  }

  static Units of(Ast.Unit unit) {
    Units top = ofWord(unit.top().word());
    return unit.bottom() == null ? top : top.divide(ofWord(unit.bottom().word()));
  }

  Units times(Units o) {
    return new Units(count + o.count, seconds + o.seconds, bytes + o.bytes);
  }

  Units divide(Units o) {
    return new Units(count - o.count, seconds - o.seconds, bytes - o.bytes);
  }

  boolean isDimensionless() {
    return equals(NONE);
  }

  /** How the unit is written in a metric file, e.g. {@code bytes/count}, {@code count/s}, {@code fraction}. */
  @Override
  public String toString() {
    if (isDimensionless()) {
      return "fraction";
    }
    String top = words(count, seconds, bytes, 1);
    String bottom = words(count, seconds, bytes, -1);
    if (bottom.isEmpty()) {
      return top;
    }
    return (top.isEmpty() ? "1" : top) + "/" + (bottom.equals("seconds") ? "s" : bottom);
  }

  private static String words(int count, int seconds, int bytes, int sign) {
    StringBuilder sb = new StringBuilder();
    append(sb, "count", count * sign);
    append(sb, "seconds", seconds * sign);
    append(sb, "bytes", bytes * sign);
    return sb.toString();
  }

  private static void append(StringBuilder sb, String word, int power) {
    for (int i = 0; i < power; i++) {
      sb.append(sb.length() == 0 ? "" : "*").append(word);
    }
  }
}
