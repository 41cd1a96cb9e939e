package dev.bottlenose.metrics;

import java.util.List;

/** The outcome of loading a metric file: the new library, or the errors (and the library unchanged). */
public final class Diagnostics {
  private final List<DslError> errors;
  private final MetricLibrary library;

  Diagnostics(List<DslError> errors, MetricLibrary library) {
    this.errors = List.copyOf(errors);
    this.library = library;
  }

  public boolean hasErrors() {
    return !errors.isEmpty();
  }

  /** Every error found, in file order. */
  public List<DslError> errors() {
    return errors;
  }

  /** The library with the file's metrics added; throws {@link MetricException} listing the errors if there were any. */
  public MetricLibrary library() {
    if (hasErrors()) {
      StringBuilder sb = new StringBuilder("the metric file has errors:");
      errors.forEach(e -> sb.append('\n').append(e.located()));
      throw new MetricException(sb.toString());
    }
    return library;
  }
}
