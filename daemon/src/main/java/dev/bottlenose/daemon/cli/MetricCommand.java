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
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import dev.bottlenose.cli.ExitCodes;
import dev.bottlenose.cli.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code metric check FILE} (errors as {@code FILE:line:column: message}, exit 1 on errors) and
 * {@code metric list [--metrics FILE]} (the built-ins and the file's metrics: name, unit, description).
 */
@Command(name = "metric", description = "check a metric file, list the metrics",
    subcommands = {MetricCommand.Check.class, MetricCommand.List.class})
final class MetricCommand implements Callable<Integer> {
  @ParentCommand
  Main main;

  @Override
  public Integer call() {
    throw new UsageException("'metric' needs 'check FILE' or 'list [--metrics FILE]'");
  }

  /** {@code metric check FILE}. */
  @Command(name = "check", description = "check a metric file: FILE:line:column: message per error")
  static final class Check implements Callable<Integer> {
    @ParentCommand
    MetricCommand metric;

    @Parameters(paramLabel = "FILE", description = "the metric file")
    String file;

    @Mixin
    JsonOption output;

    @Override
    public Integer call() {
      return check(file, output.json, metric.main.console);
    }
  }

  /** {@code metric list [--metrics FILE]} ({@code --file FILE} is its old name, still read, no longer shown). */
  @Command(name = "list", description = "built-in metrics (and FILE's): name, unit, description")
  static final class List implements Callable<Integer> {
    @ParentCommand
    MetricCommand metric;

    /** The name {@code measure} and {@code search} give a metric file too. */
    @Option(names = "--metrics", paramLabel = "FILE", description = "a metric file whose metrics to list too")
    String file;

    @Option(names = "--file", paramLabel = "FILE", hidden = true, description = "the old name of --metrics")
    void oldName(String file) {
      this.file = file;
    }

    @Mixin
    JsonOption output;

    @Override
    public Integer call() {
      return list(file, output.json, metric.main.console);
    }
  }

  private static int check(String file, boolean json, Console console) {
    Loaded loaded = load(file);
    if (json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("file", file);
      m.put("ok", loaded.errors == null);
      m.put("metrics", loaded.errors == null ? loaded.added.stream().map(MetricCommand::toJson).toList() : java.util.List.of());
      m.put("errors", loaded.errors == null ? java.util.List.of() : loaded.errors.stream().map(e -> JsonOption.object("file", e.file(),
          "line", e.line(), "column", e.column(), "message", e.message())).toList());
      JsonOption.print(console, m);
      return loaded.errors == null ? ExitCodes.OK : ExitCodes.FAILED;
    }
    if (loaded.errors != null) {
      loaded.errors.forEach(e -> console.err().println(e.located()));
      console.err().println(file + ": " + loaded.errors.size() + (loaded.errors.size() == 1 ? " error" : " errors"));
      return ExitCodes.FAILED;
    }
    java.util.List<String> names = loaded.added.stream().map(MetricDefinition::name).toList();
    console.out().println(file + ": ok, " + names.size() + (names.size() == 1 ? " metric" : " metrics")
        + (names.isEmpty() ? "" : " (" + String.join(", ", names) + ")"));
    return ExitCodes.OK;
  }

  private static int list(String file, boolean json, Console console) {
    MetricLibrary builtin = MetricLibrary.builtin();
    Loaded loaded = file == null ? null : load(file);
    if (loaded != null && loaded.errors != null) {
      loaded.errors.forEach(e -> console.err().println(e.located()));
      return ExitCodes.FAILED;
    }
    if (json) {
      java.util.List<Object> all = new ArrayList<>();
      builtin.metrics().forEach(m -> all.add(withOrigin(toJson(m), "built-in")));
      if (loaded != null) {
        loaded.added.forEach(m -> all.add(withOrigin(toJson(m), file)));
      }
      JsonOption.print(console, JsonOption.object("metrics", all));
      return ExitCodes.OK;
    }
    print("built-in", builtin.metrics(), console);
    if (loaded != null) {
      print(file, loaded.added, console);
    }
    return ExitCodes.OK;
  }

  private static Map<String, Object> toJson(MetricDefinition m) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("name", m.name());
    json.put("unit", m.unit());
    json.put("description", m.description());
    return json;
  }

  private static Map<String, Object> withOrigin(Map<String, Object> metric, String origin) {
    metric.put("origin", origin);
    return metric;
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
    java.util.List<MetricDefinition> added = new ArrayList<>();
    d.library().metrics().stream().filter(m -> !builtin.contains(m.name())).forEach(added::add);
    return new Loaded(added, null, text);
  }

  /** A loaded metric file: its new metrics, or its errors; and its text. */
  record Loaded(java.util.List<MetricDefinition> added, java.util.List<DslError> errors, String text) {}
}
