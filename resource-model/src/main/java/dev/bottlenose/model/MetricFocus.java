package dev.bottlenose.model;

/**
 * The unit of measurement: a metric name and a focus. Text form: {@code (calls, </Code/com.acme/Sim/step()V>)}.
 *
 * <p>SKELETON: parse to be written.
 */
public record MetricFocus(String metric, Focus focus) {

  public static MetricFocus parse(String text) {
    throw new PathSyntaxException(text, 0, "parser not written yet");
  }
}
