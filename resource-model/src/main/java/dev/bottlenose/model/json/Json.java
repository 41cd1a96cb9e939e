package dev.bottlenose.model.json;

/**
 * A small JSON reader and writer (JDK only, so it can live inside the agent). Values are
 * {@code Map<String,Object>} (insertion-ordered {@code LinkedHashMap}), {@code List<Object>}
 * ({@code ArrayList}), {@code String}, {@code Long} or {@code Double} (integers read as Long, or as
 * Double beyond the range of a long), {@code Boolean} and {@code null}.
 */
public final class Json {
  /** The deepest nesting of objects and arrays read or written. */
  public static final int MAX_DEPTH = JsonReader.MAX_DEPTH;

  /**
   * Parses exactly one JSON value (surrounding whitespace allowed); throws {@link JsonException}
   * naming the position and what was expected on bad input, duplicate keys and trailing text.
   */
  public static Object parse(String text) {
    return new JsonReader(text).readDocument();
  }

  /**
   * Writes a value made of the types above, any {@code Number} (NaN and infinities are errors), any
   * {@code Map} (keys written with {@code toString}, enums by name), any {@code Iterable}, arrays,
   * {@code CharSequence}, {@code Character} and enums (by name).
   */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder(64);
    write(value, sb);
    return sb.toString();
  }

  /** Appends the JSON text of {@code value} to {@code out}; on error {@code out} is left as it was. */
  public static void write(Object value, StringBuilder out) {
    int length = out.length();
    try {
      new JsonWriter(out).value(value);
    } catch (JsonException e) {
      out.setLength(length);
      throw e;
    }
  }

  private Json() {}
}
