package dev.bottlenose.tests.bench.compute;

/** String kernels: build, scan, reverse, parse. */
final class Text {
  private Text() {
  }

  static String words(long seed, int count) {
    StringBuilder sb = new StringBuilder(count * 6);
    long x = seed;
    for (int i = 0; i < count; i++) {
      x = Numbers.mix(x + i);
      int len = 2 + (int) ((x >>> 8) & 5);
      for (int c = 0; c < len; c++) {
        sb.append((char) ('a' + ((x >>> (c * 5)) & 15)));
      }
      sb.append(i % 7 == 0 ? Long.toString(x & 1023) : "").append(' ');
    }
    return sb.toString();
  }

  static int vowels(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u') {
        n++;
      }
    }
    return n;
  }

  static String reverseWords(String s) {
    String[] parts = s.split(" ");
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = parts.length - 1; i >= 0; i--) {
      sb.append(parts[i]).append(' ');
    }
    return sb.toString();
  }

  static long sumNumbers(String s) {
    long sum = 0;
    long current = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') {
        current = current * 10 + (c - '0');
      } else {
        sum += current;
        current = 0;
      }
    }
    return sum + current;
  }
}
