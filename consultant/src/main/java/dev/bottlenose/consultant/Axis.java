package dev.bottlenose.consultant;

/** How a child node refines its parent: a more specific hypothesis, or a more specific focus. */
public enum Axis {
  WHY,
  WHERE;

  public String word() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
