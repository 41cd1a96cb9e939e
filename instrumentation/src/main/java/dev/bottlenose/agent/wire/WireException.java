package dev.bottlenose.agent.wire;

/** A frame field that is missing or malformed: which field, the value it had (null when absent), and why. */
public final class WireException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String field;
  private final transient Object value;

  public WireException(String field, Object value, String message) {
    super(message);
    this.field = field;
    this.value = value;
  }

  /** The field, as the frame names it ({@code probes[2].kind} for an item of a list). */
  public String field() {
    return field;
  }

  /** The value the field had, or null when it was absent. */
  public Object value() {
    return value;
  }
}
