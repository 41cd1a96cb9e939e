package dev.bottlenose.agent;

import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.MethodRef;
import dev.bottlenose.model.ResourcePath;
import java.util.Map;

/** Typed arguments of a request, refused with BAD_REQUEST naming the argument when malformed. */
final class Arguments {
  static String string(Map<String, Object> request, String name, String otherwise) throws RequestException {
    Object v = request.get(name);
    if (v == null) {
      return otherwise;
    }
    if (!(v instanceof String s)) {
      throw new RequestException("BAD_REQUEST", name + " must be a string, not " + v);
    }
    return s;
  }

  static long number(Map<String, Object> request, String name, long otherwise) throws RequestException {
    Object v = request.get(name);
    if (v == null) {
      return otherwise;
    }
    if (!(v instanceof Long n)) {
      throw new RequestException("BAD_REQUEST", name + " must be an integer, not " + v);
    }
    return n;
  }

  static ResourcePath path(String text, String name) throws RequestException {
    try {
      return ResourcePath.parse(text);
    } catch (IllegalArgumentException e) {
      throw new RequestException("BAD_REQUEST", name + " is not a resource path: " + e.getMessage());
    }
  }

  /** The method a {@code /Code/<package>/<class>/<method>[descriptor]} argument names. */
  static MethodRef methodPath(Map<String, Object> request, String name) throws RequestException {
    String text = string(request, name, null);
    if (text == null) {
      throw new RequestException("BAD_REQUEST", "missing argument " + name + " (a /Code method path)");
    }
    ResourcePath path = path(text, name);
    if (path.hierarchy() != Hierarchy.CODE || path.depth() < 3) {
      throw new RequestException("BAD_REQUEST", name + " " + path
          + " is not a method path: expected /Code/<package>/<class>/<method>[descriptor]");
    }
    return MethodRef.fromPath(path);
  }

  private Arguments() {}
}
