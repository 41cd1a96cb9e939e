package dev.bottlenose.daemon.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads durations written like {@code 500ms}, {@code 10s}, {@code 1.5s}, {@code 2m} or {@code 1h}. */
final class Durations {
  private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

  private Durations() {}

  static Duration parse(String text) {
    Matcher m = FORM.matcher(text == null ? "" : text.trim());
    if (!m.matches()) {
      throw new UsageException("bad duration '" + text + "': write a number and a unit, e.g. 500ms, 10s, 2m, 1h");
    }
    double amount = Double.parseDouble(m.group(1));
    double millis = amount * switch (m.group(2)) {
      case "ms" -> 1;
      case "s" -> 1_000;
      case "m" -> 60_000;
      default -> 3_600_000;
    };
    if (millis < 1 || millis > Duration.ofDays(1).toMillis()) {
      throw new UsageException("duration '" + text + "' is outside 1ms .. 24h");
    }
    return Duration.ofMillis(Math.round(millis));
  }

  /** {@code 1.5s}, {@code 250ms}: the short form used in output. */
  static String format(Duration d) {
    long millis = d.toMillis();
    return millis < 1000 ? millis + "ms" : (millis % 1000 == 0 ? millis / 1000 + "s" : millis / 1000.0 + "s");
  }
}
