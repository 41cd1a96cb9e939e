package dev.bottlenose.web.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The options of one command: {@code --name value} or {@code --name=value} (repeatable), and flags. */
final class Args {
  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");
  private final String command;
  private final Map<String, List<String>> options;

  private Args(String command, Map<String, List<String>> options) {
    this.command = command;
    this.options = options;
  }

  /** Parses {@code words}; {@code valued} take a value, {@code flags} do not; anything else is a usage error. */
  static Args parse(String command, List<String> words, Set<String> valued, Set<String> flags) {
    Map<String, List<String>> options = new LinkedHashMap<>();
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (!w.startsWith("--") || w.length() == 2) {
        throw new UsageException("unexpected argument '" + w + "'");
      }
      String name = w.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      if (flags.contains(name)) {
        if (value != null) {
          throw new UsageException("--" + name + " takes no value");
        }
        options.computeIfAbsent(name, k -> new ArrayList<>()).add("true");
      } else if (valued.contains(name)) {
        if (value == null) {
          if (i + 1 >= words.size()) {
            throw new UsageException("--" + name + " needs a value");
          }
          value = words.get(++i);
        }
        options.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
      } else {
        throw new UsageException("unknown option --" + name + " for '" + command + "'");
      }
    }
    return new Args(command, options);
  }

  boolean has(String name) {
    return options.containsKey(name);
  }

  List<String> all(String name) {
    return options.getOrDefault(name, List.of());
  }

  String option(String name, String fallback) {
    List<String> values = all(name);
    if (values.size() > 1) {
      throw new UsageException("--" + name + " given " + values.size() + " times");
    }
    return values.isEmpty() ? fallback : values.get(0);
  }

  int port(String name, int fallback) {
    String v = option(name, null);
    if (v == null) {
      return fallback;
    }
    try {
      int port = Integer.parseInt(v);
      if (port < 0 || port > 65535) {
        throw new UsageException("--" + name + " " + v + " is not in 0..65535");
      }
      return port;
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " '" + v + "' is not a port number");
    }
  }

  List<Long> pids() {
    List<Long> pids = new ArrayList<>();
    for (String v : all("pid")) {
      try {
        long pid = Long.parseLong(v);
        if (pid <= 0) {
          throw new NumberFormatException();
        }
        if (!pids.contains(pid)) {
          pids.add(pid);
        }
      } catch (NumberFormatException e) {
        throw new UsageException("--pid '" + v + "' is not a process id");
      }
    }
    return pids;
  }

  /** A budget as {@code 5%} or {@code 0.05}, in (0, 0.5]. */
  double budget(double fallback) {
    String v = option("budget", null);
    if (v == null) {
      return fallback;
    }
    double b;
    try {
      b = v.endsWith("%") ? Double.parseDouble(v.substring(0, v.length() - 1)) / 100 : Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new UsageException("--budget '" + v + "' is not a share of CPU: write e.g. 5% or 0.05");
    }
    if (!(b > 0 && b <= 0.5)) {
      throw new UsageException("--budget " + v + " is outside (0, 50%]");
    }
    return b;
  }

  /** A duration written like {@code 500ms}, {@code 10s}, {@code 1.5s}, {@code 2m} or {@code 1h}. */
  Duration duration(String name, Duration fallback) {
    String v = option(name, null);
    if (v == null) {
      return fallback;
    }
    Matcher m = DURATION.matcher(v.trim());
    if (!m.matches()) {
      throw new UsageException("--" + name + " '" + v + "' is not a duration: write a number and a unit, e.g. 500ms, 60s, 2m, 1h");
    }
    double millis = Double.parseDouble(m.group(1)) * switch (m.group(2)) {
      case "ms" -> 1;
      case "s" -> 1_000;
      case "m" -> 60_000;
      default -> 3_600_000;
    };
    if (millis < 1000 || millis > Duration.ofDays(1).toMillis()) {
      throw new UsageException("--" + name + " " + v + " is outside 1s .. 24h");
    }
    return Duration.ofMillis(Math.round(millis));
  }
}
