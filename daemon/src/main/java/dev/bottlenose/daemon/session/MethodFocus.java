package dev.bottlenose.daemon.session;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.util.Map;

/** Reads the method a probe goes into from a focus text: {@code </Code/p/C/m()V>} or a bare {@code /Code} path. */
final class MethodFocus {
  private static final int METHOD_DEPTH = 3;

  private MethodFocus() {}

  static ResourcePath parse(String text) {
    String t = text == null ? "" : text.trim();
    if (t.isEmpty()) {
      throw SessionException.badInput("no focus given: name a method as /Code/<package>/<Class>/<method>[descriptor]");
    }
    ResourcePath path = t.startsWith("<") ? codePathOf(t) : parsePath(t);
    if (path.hierarchy() != Hierarchy.CODE) {
      throw SessionException.badInput("focus '" + text + "' names " + path + "; probes go into /Code methods");
    }
    if (path.depth() < METHOD_DEPTH) {
      throw SessionException.badInput("focus '" + text + "' names " + (path.isRoot() ? "the root" : "a "
          + (path.depth() == 1 ? "package" : "class")) + ", not a method: give /Code/<package>/<Class>/<method>");
    }
    return path.depth() == METHOD_DEPTH ? path : ResourcePath.of(Hierarchy.CODE, path.segments().subList(0, 3));
  }

  private static ResourcePath codePathOf(String text) {
    Focus focus;
    try {
      focus = Focus.parse(text);
    } catch (IllegalArgumentException e) {
      throw SessionException.badInput("malformed focus: " + e.getMessage());
    }
    for (Map.Entry<Hierarchy, ResourcePath> e : focus.constrained().entrySet()) {
      if (e.getKey() != Hierarchy.CODE) {
        throw SessionException.badInput("focus '" + text + "' constrains " + e.getValue()
            + "; a probe can only be placed by its /Code method");
      }
    }
    return focus.get(Hierarchy.CODE);
  }

  private static ResourcePath parsePath(String text) {
    try {
      return ResourcePath.parse(text);
    } catch (IllegalArgumentException e) {
      throw SessionException.badInput("malformed focus: " + e.getMessage());
    }
  }
}
