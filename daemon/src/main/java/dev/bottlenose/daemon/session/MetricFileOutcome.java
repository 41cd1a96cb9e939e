package dev.bottlenose.daemon.session;

import dev.bottlenose.metrics.DslError;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What adding a metric file did: the names it added, or its errors (then it added nothing). */
public record MetricFileOutcome(String fileName, List<String> added, List<DslError> errors) {

  public MetricFileOutcome {
    added = List.copyOf(added);
    errors = List.copyOf(errors);
  }

  public boolean hasErrors() {
    return !errors.isEmpty();
  }

  /** {@code file:line:column: message} for each error, one per line. */
  public String errorText() {
    return String.join("\n", errors.stream().map(DslError::located).toList());
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("fileName", fileName);
    m.put("added", added);
    m.put("errors", errors.stream().map(MetricFileOutcome::error).toList());
    return m;
  }

  private static Map<String, Object> error(DslError e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("file", e.file());
    m.put("line", e.line());
    m.put("column", e.column());
    m.put("message", e.message());
    return m;
  }
}
