package dev.bottlenose.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A set of checked metrics by name: the built-in library (written in the DSL, {@code builtin.metrics})
 * plus any user files added with {@link #with}. Immutable; adding a file gives a new library.
 */
public final class MetricLibrary {
  static final String BUILTIN = "builtin.metrics";
  private static volatile MetricLibrary builtin;
  private final Map<String, MetricDefinition> metrics;

  private MetricLibrary(Map<String, MetricDefinition> metrics) {
    this.metrics = Collections.unmodifiableMap(metrics);
  }

  /** The built-in metrics, read from {@code dev/bottlenose/metrics/builtin.metrics} once. */
  public static MetricLibrary builtin() {
    MetricLibrary b = builtin;
    if (b == null) {
      Diagnostics d = new MetricLibrary(new LinkedHashMap<>()).with(BUILTIN, builtinText());
      b = d.library();
      builtin = b;
    }
    return b;
  }

  /** An empty library (no built-ins), for files that stand alone. */
  public static MetricLibrary empty() {
    return new MetricLibrary(new LinkedHashMap<>());
  }

  /**
   * Parses and checks {@code text} (named {@code fileName} in errors); its metrics may use this library's
   * in derived metrics, and must not reuse their names. Returns the new library or the errors.
   */
  public Diagnostics with(String fileName, String text) {
    SourceText source = new SourceText(fileName, text);
    List<DslError> errors = new ArrayList<>();
    List<Ast.Metric> parsed = new Parser(source, errors).parseFile();
    List<MetricDefinition> defined = new Checker(source, errors, metrics).check(parsed);
    errors.sort(Comparator.comparingInt(DslError::line).thenComparingInt(DslError::column));
    if (!errors.isEmpty()) {
      return new Diagnostics(errors, this);
    }
    Map<String, MetricDefinition> all = new LinkedHashMap<>(metrics);
    defined.forEach(d -> all.put(d.name(), d));
    return new Diagnostics(errors, new MetricLibrary(all));
  }

  /** The metric named {@code name}; throws {@link MetricException} naming the known ones if there is none. */
  public MetricDefinition metric(String name) {
    MetricDefinition d = metrics.get(name);
    if (d == null) {
      throw new MetricException("unknown metric '" + name + "'; known metrics: " + String.join(", ", metrics.keySet()));
    }
    return d;
  }

  public boolean contains(String name) {
    return metrics.containsKey(name);
  }

  /** Every metric, built-ins first, each file's in its order. */
  public Collection<MetricDefinition> metrics() {
    return metrics.values();
  }

  static String builtinText() {
    try (InputStream in = MetricLibrary.class.getResourceAsStream(BUILTIN)) {
      if (in == null) {
        throw new IllegalStateException("the built-in metric library " + BUILTIN + " is missing from the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the built-in metric library " + BUILTIN, e);
    }
  }
}
