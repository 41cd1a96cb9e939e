package dev.bottlenose.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The one duration syntax of the command line: a number and a unit, {@code 500ms}, {@code 8s}, {@code 1.5m},
 * {@code 2h}, from 1ms to 24h. {@link Cli} registers {@link Converter} for every {@link Duration} option.
 */
public final class Durations {
  private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");
  private static final Duration MAX = Duration.ofDays(1);

  private Durations() {}

  /** The duration {@code text} writes; an {@link IllegalArgumentException} naming it when it is not one. */
  public static Duration parse(String text) {
    Matcher m = FORM.matcher(text == null ? "" : text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("bad duration '" + text + "': write a number and a unit, e.g. 500ms, 8s, 1.5m, 2h");
    }
    double millis = Double.parseDouble(m.group(1)) * switch (m.group(2)) {
      case "ms" -> 1;
      case "s" -> 1_000;
      case "m" -> 60_000;
      default -> 3_600_000;
    };
    if (millis < 1 || millis > MAX.toMillis()) {
      throw new IllegalArgumentException("duration '" + text + "' is outside 1ms .. 24h");
    }
    return Duration.ofMillis(Math.round(millis));
  }

  /** {@code 1.5s}, {@code 250ms}: the short form used in output. */
  public static String format(Duration d) {
    long millis = d.toMillis();
    return millis < 1000 ? millis + "ms" : (millis % 1000 == 0 ? millis / 1000 + "s" : millis / 1000.0 + "s");
  }

  /** picocli's converter for {@link Duration} options. */
  public static final class Converter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
