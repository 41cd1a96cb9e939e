package dev.bottlenose.metrics;

/**
 * One problem in a metric file: where it is (1-based line and column, columns counted in UTF-16
 * chars) and what was expected there. {@link #toString} gives {@code line:column: message}.
 */
public record DslError(String file, int line, int column, String message) {

  /** {@code file:line:column: message}, the form compilers print. */
  public String located() {
    return file + ":" + this;
  }

  @Override
  public String toString() {
    return line + ":" + column + ": " + message;
  }
}
