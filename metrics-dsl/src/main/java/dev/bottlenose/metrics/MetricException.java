package dev.bottlenose.metrics;

/** A metric cannot be compiled for a focus, evaluated, or loaded; the message says why. */
public final class MetricException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public MetricException(String message) {
    super(message);
  }
}
