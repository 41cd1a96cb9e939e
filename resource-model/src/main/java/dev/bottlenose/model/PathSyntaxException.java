package dev.bottlenose.model;

/** A resource path, constraint, focus or metric-focus text that does not parse; names the position. */
public final class PathSyntaxException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String input;
  private final int position;

  public PathSyntaxException(String input, int position, String problem) {
    super(problem + " at position " + position + " in '" + input + "'");
    this.input = input;
    this.position = position;
  }

  /** The text that failed to parse. */
  public String input() {
    return input;
  }

  /** Zero-based character offset of the problem in {@link #input()}. */
  public int position() {
    return position;
  }
}
