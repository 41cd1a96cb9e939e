package dev.bottlenose.daemon.cli;

import dev.bottlenose.metrics.Diagnostics;
import dev.bottlenose.metrics.DslError;
import dev.bottlenose.metrics.MetricDefinition;
import dev.bottlenose.metrics.MetricLibrary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code metric check FILE} (errors as {@code FILE:line:column: message}, exit 1 on errors) and
 * {@code metric list [--file FILE]} (the built-ins and the file's metrics: name, unit, description).
 */
final class MetricCommand {
  static final Set<String> OPTIONS = Set.of("file");

  private MetricCommand() {}

  static int run(Args a, Console console) {
    List<String> words = a.positional();
    if (words.isEmpty()) {
      throw new UsageException("'metric' needs 'check FILE' or 'list [--file FILE]'");
    }
    switch (words.get(0)) {
      case "check":
        if (words.size() != 2 || a.has("file")) {
          throw new UsageException("'metric check' takes one metric file: metric check FILE");
        }
        return check(words.get(1), console);
      case "list":
        if (words.size() != 1) {
          throw new UsageException("'metric list' got unexpected argument '" + words.get(1) + "'");
        }
        return list(a.option("file", null), console);
      default:
        throw new UsageException("unknown 'metric' subcommand '" + words.get(0) + "'; use check or list");
    }
  }

  private static int check(String file, Console console) {
    Loaded loaded = load(file);
    if (loaded.errors != null) {
      loaded.errors.forEach(e -> console.err().println(e.located()));
      console.err().println(file + ": " + loaded.errors.size() + (loaded.errors.size() == 1 ? " error" : " errors"));
      return Main.FAILED;
    }
    List<String> names = loaded.added.stream().map(MetricDefinition::name).toList();
    console.out().println(file + ": ok, " + names.size() + (names.size() == 1 ? " metric" : " metrics")
        + (names.isEmpty() ? "" : " (" + String.join(", ", names) + ")"));
    return Main.OK;
  }

  private static int list(String file, Console console) {
    MetricLibrary builtin = MetricLibrary.builtin();
    print("built-in", builtin.metrics(), console);
    if (file != null) {
      Loaded loaded = load(file);
      if (loaded.errors != null) {
        loaded.errors.forEach(e -> console.err().println(e.located()));
        return Main.FAILED;
      }
      print(file, loaded.added, console);
    }
    return Main.OK;
  }

  private static void print(String origin, Collection<MetricDefinition> metrics, Console console) {
    console.out().println(origin + " (" + metrics.size() + "):");
    int width = metrics.stream().mapToInt(m -> m.name().length()).max().orElse(4);
    int unitWidth = metrics.stream().mapToInt(m -> m.unit().length()).max().orElse(4);
    for (MetricDefinition m : metrics) {
      console.out().println(String.format(Locale.ROOT, "  %-" + width + "s  %-" + unitWidth + "s  %s", m.name(),
          m.unit(), m.description()));
    }
  }

  /** The file's metrics checked against the built-ins: the new definitions, or the errors. */
  static Loaded load(String file) {
    String text;
    try {
      text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("no such metric file: " + file);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read metric file " + file + ": " + e.getMessage());
    }
    MetricLibrary builtin = MetricLibrary.builtin();
    Diagnostics d = builtin.with(file, text);
    if (d.hasErrors()) {
      return new Loaded(null, d.errors(), text);
    }
    List<MetricDefinition> added = new ArrayList<>();
    d.library().metrics().stream().filter(m -> !builtin.contains(m.name())).forEach(added::add);
    return new Loaded(added, null, text);
  }

  /** A loaded metric file: its new metrics, or its errors; and its text. */
  record Loaded(List<MetricDefinition> added, List<DslError> errors, String text) {}
}
