package dev.bottlenose.daemon.attach;

/** One thing preflight found about a target: an error stops the attach, a warning does not. */
public record Finding(Severity severity, String message) {

  /** How serious a finding is. */
  public enum Severity {
    ERROR,
    WARNING
  }

  static Finding error(String message) {
    return new Finding(Severity.ERROR, message);
  }

  static Finding warning(String message) {
    return new Finding(Severity.WARNING, message);
  }

  public boolean isError() {
    return severity == Severity.ERROR;
  }

  @Override
  public String toString() {
    return severity.name().toLowerCase(java.util.Locale.ROOT) + ": " + message;
  }
}
