package dev.bottlenose.model.json;

/** Malformed JSON, or a JSON value that is not the shape expected; names the position when known. */
public final class JsonException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final int position;

  public JsonException(String problem, int position) {
    super(position >= 0 ? problem + " at position " + position : problem);
    this.position = position;
  }

  /** Zero-based offset in the input, or -1 when not about text. */
  public int position() {
    return position;
  }
}
