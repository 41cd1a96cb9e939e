package dev.bottlenose.daemon.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One command's arguments: {@code --name value} options from a fixed set, positional words, and
 * everything after {@code --} (a command line to launch). Unknown or repeated options are usage errors.
 */
final class Args {
  private final String command;
  private final Map<String, String> options = new HashMap<>();
  private final List<String> positional = new ArrayList<>();
  private final List<String> rest = new ArrayList<>();

  private Args(String command) {
    this.command = command;
  }

  /** Arguments of a command that takes no command line after {@code --}. */
  static Args parse(String command, List<String> words, Set<String> known) {
    Args a = withCommandLine(command, words, known);
    if (!a.rest.isEmpty() || words.contains("--")) {
      throw new UsageException("'" + command + "' takes no command line after --");
    }
    return a;
  }

  static Args withCommandLine(String command, List<String> words, Set<String> known) {
    Args a = new Args(command);
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (w.equals("--")) {
        a.rest.addAll(words.subList(i + 1, words.size()));
        break;
      }
      if (!w.startsWith("--")) {
        a.positional.add(w);
        continue;
      }
      String name = w.substring(2);
      if (!known.contains(name)) {
        throw new UsageException("unknown option --" + name + " for '" + command + "'; it takes "
            + (known.isEmpty() ? "no options" : "--" + String.join(", --", new java.util.TreeSet<>(known))));
      }
      if (i + 1 >= words.size()) {
        throw new UsageException("option --" + name + " needs a value");
      }
      if (a.options.put(name, words.get(++i)) != null) {
        throw new UsageException("option --" + name + " is given twice");
      }
    }
    return a;
  }

  String command() {
    return command;
  }

  String option(String name, String absent) {
    return options.getOrDefault(name, absent);
  }

  boolean has(String name) {
    return options.containsKey(name);
  }

  String required(String name) {
    String v = options.get(name);
    if (v == null) {
      throw new UsageException("'" + command + "' needs --" + name);
    }
    return v;
  }

  long pid() {
    return positiveLong("pid", required("pid"));
  }

  int intOption(String name, int absent) {
    String v = options.get(name);
    if (v == null) {
      return absent;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " must be a whole number, not '" + v + "'");
    }
  }

  Duration duration(String name, Duration absent) {
    String v = options.get(name);
    return v == null ? absent : Durations.parse(v);
  }

  List<String> positional() {
    return positional;
  }

  /** The words after {@code --}. */
  List<String> rest() {
    return rest;
  }

  void atMostPositional(int n) {
    if (positional.size() > n) {
      throw new UsageException("'" + command + "' got unexpected argument '" + positional.get(n) + "'");
    }
  }

  private static long positiveLong(String name, String v) {
    long n;
    try {
      n = Long.parseLong(v);
    } catch (NumberFormatException e) {
      n = 0;
    }
    if (n <= 0) {
      throw new UsageException("--" + name + " must be a positive whole number, not '" + v + "'");
    }
    return n;
  }
}
