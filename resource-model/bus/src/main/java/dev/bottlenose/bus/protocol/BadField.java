package dev.bottlenose.bus.protocol;

/** A message field that is missing or has the wrong type or form; the message names the field and the value. */
public final class BadField extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  /** The failure code a daemon answers a bad field with. */
  public static final int CODE = 400;

  private final String field;

  public BadField(String field, String message) {
    super(message);
    this.field = field;
  }

  /** The field at fault. */
  public String field() {
    return field;
  }
}
