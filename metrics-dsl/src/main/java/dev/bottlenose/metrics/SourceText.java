package dev.bottlenose.metrics;

import java.util.ArrayList;
import java.util.List;

/** The text of one metric file, with its name, turning offsets into line:column errors. */
final class SourceText {
  private final String name;
  private final String text;
  private final int[] lineStarts;

  SourceText(String name, String text) {
    this.name = name;
    this.text = text;
    List<Integer> starts = new ArrayList<>();
    starts.add(0);
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        starts.add(i + 1);
      }
    }
    lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
  }

  String name() {
    return name;
  }

  String text() {
    return text;
  }

  DslError error(int offset, String message) {
    int at = Math.max(0, Math.min(offset, text.length()));
    int line = lineOf(at);
    return new DslError(name, line + 1, at - lineStarts[line] + 1, message);
  }

  private int lineOf(int offset) {
    int lo = 0;
    int hi = lineStarts.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (lineStarts[mid] <= offset) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }
}
