package dev.bottlenose.model.json;

/**
 * A small JSON reader and writer (JDK only, so it can live inside the agent). Values are
 * {@code Map<String,Object>} (insertion-ordered), {@code List<Object>}, {@code String}, {@code Long}
 * or {@code Double} (integers read as Long), {@code Boolean} and {@code null}.
 *
 * <p>SKELETON: to be written.
 */
public final class Json {
  /** Parses one JSON value; throws {@link JsonException} naming the position on bad input. */
  public static Object parse(String text) {
    throw new JsonException("not written yet", 0);
  }

  /** Writes a value made of the types above (any {@code Number}, any {@code Map}/{@code Iterable}). */
  public static String write(Object value) {
    throw new JsonException("not written yet", 0);
  }

  private Json() {}
}
