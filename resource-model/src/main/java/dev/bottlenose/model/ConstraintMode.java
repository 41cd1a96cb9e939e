package dev.bottlenose.model;

/** How a code constraint is active: executing in it, on the stack, or having called the active code. */
public enum ConstraintMode {
  EXCLUSIVE,
  INCLUSIVE,
  CALLER;

  /** The lower-case word used in text, e.g. {@code inclusive}. */
  public String word() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
