package dev.bottlenose.model;

/**
 * One resource a measurement is restricted to, with how it is active. Text form:
 * {@code inclusive:/Code/com.acme/Sim/step()V}; a path without a mode prefix is inclusive.
 *
 * <p>SKELETON: parse to be written (see resource-model/README.md).
 */
public record Constraint(ResourcePath path, ConstraintMode mode) {

  public static Constraint parse(String text) {
    throw new PathSyntaxException(text, 0, "parser not written yet");
  }

  @Override
  public String toString() {
    return mode.word() + ":" + path;
  }
}
