package dev.bottlenose.model;

/**
 * One resource a measurement is restricted to, with how it is active. Text form:
 * {@code inclusive:/Code/com.acme/Sim/step()V}; a path without a mode prefix is inclusive.
 */
public record Constraint(ResourcePath path, ConstraintMode mode) {

  /** Parses {@code [exclusive:|inclusive:|caller:]<path>}; throws {@link PathSyntaxException}. */
  public static Constraint parse(String text) {
    if (text.startsWith("/")) {
      return new Constraint(ResourcePath.parse(text), ConstraintMode.INCLUSIVE);
    }
    int colon = text.indexOf(':');
    if (colon < 0) {
      throw new PathSyntaxException(text, 0, "expected a mode (exclusive:, inclusive:, caller:) or '/' starting a resource path");
    }
    String word = text.substring(0, colon);
    for (ConstraintMode m : ConstraintMode.values()) {
      if (m.word().equals(word)) {
        return new Constraint(PathSyntax.parse(text, colon + 1, text.length()), m);
      }
    }
    throw new PathSyntaxException(text, 0, "unknown constraint mode '" + word + "'; expected exclusive, inclusive or caller");
  }

  @Override
  public String toString() {
    return mode.word() + ":" + path;
  }
}
