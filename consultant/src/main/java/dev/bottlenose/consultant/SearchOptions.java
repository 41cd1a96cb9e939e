package dev.bottlenose.consultant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How to run one search: its id, setting overrides (budget, time limit, thresholds, …) and an optional
 * directory of extra rules: its {@code *.drl} files join the built-in rules and its {@code
 * *.properties} files are read as settings (explicit overrides win).
 */
public record SearchOptions(String id, Map<String, String> overrides, Path rulesDirectory) {

  public SearchOptions {
    if (id == null || !id.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,99}")) {
      throw new IllegalArgumentException("search id must be 1-100 letters, digits, '.', '_' or '-', not starting with '.', '_' or '-': '" + id + "'");
    }
    overrides = Map.copyOf(overrides);
  }

  public static SearchOptions of(String id) {
    return new SearchOptions(id, Map.of(), null);
  }

  public SearchOptions with(String key, String value) {
    Map<String, String> m = new LinkedHashMap<>(overrides);
    m.put(key, Objects.requireNonNull(value, key));
    return new SearchOptions(id, m, rulesDirectory);
  }

  /** The overhead budget as a fraction of the target's CPU, e.g. 0.05. */
  public SearchOptions withBudget(double fraction) {
    return with("budget.fraction", Double.toString(fraction));
  }

  public SearchOptions withMaxTime(java.time.Duration limit) {
    return with("search.max_time_seconds", Double.toString(limit.toMillis() / 1000.0));
  }

  public SearchOptions withRulesDirectory(Path directory) {
    return new SearchOptions(id, overrides, directory);
  }

  /** The defaults, then the rules directory's properties files (by name), then the overrides. */
  public Settings settings() {
    Settings s = Settings.defaults();
    if (rulesDirectory != null && Files.isDirectory(rulesDirectory)) {
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(rulesDirectory, "*.properties")) {
        java.util.List<Path> files = new java.util.ArrayList<>();
        ds.forEach(files::add);
        files.sort(null);
        for (Path f : files) {
          s = s.with(Settings.readFile(f), f.toString());
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read settings in " + rulesDirectory + ": " + e.getMessage(), e);
      }
    }
    return s.with(overrides, "search options");
  }
}
