package dev.bottlenose.agent.sources;

import dev.bottlenose.model.CodePaths;
import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.ResourcePath;
import java.util.List;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;

/**
 * A {@code /Code} package, class or method (with or without descriptor) and how it must be active,
 * matched against JFR stack frames by plain string comparisons prepared once.
 */
final class CodeFilter {
  private final ConstraintMode mode;
  private final String packageName;
  private final String className;
  private final String methodName;
  private final String descriptor;

  CodeFilter(ConstraintMode mode, ResourcePath path) {
    this.mode = mode;
    List<String> s = path.segments();
    this.packageName = CodePaths.DEFAULT_PACKAGE.equals(s.get(0)) ? "" : s.get(0);
    this.className = s.size() > 1 ? CodePaths.className(path) : null;
    if (s.size() > 2) {
      String m = s.get(2);
      int paren = m.indexOf('(');
      this.methodName = paren < 0 ? m : m.substring(0, paren);
      this.descriptor = paren < 0 ? null : m.substring(paren);
    } else {
      this.methodName = null;
      this.descriptor = null;
    }
  }

  ConstraintMode mode() {
    return mode;
  }

  /** The frame that makes the filter true (top, caller or any frame, by mode), or null. */
  RecordedFrame match(List<RecordedFrame> frames) {
    switch (mode) {
      case EXCLUSIVE:
        return frames.isEmpty() || !matches(frames.get(0).getMethod()) ? null : frames.get(0);
      case CALLER:
        return frames.size() < 2 || !matches(frames.get(1).getMethod()) ? null : frames.get(1);
      default:
        for (RecordedFrame f : frames) {
          if (matches(f.getMethod())) {
            return f;
          }
        }
        return null;
    }
  }

  boolean matches(RecordedMethod m) {
    if (m == null || methodName != null && !methodName.equals(m.getName())) {
      return false;
    }
    String type = m.getType() == null ? null : m.getType().getName();
    if (type == null) {
      return false;
    }
    if (className != null) {
      return className.equals(type) && (descriptor == null || descriptor.equals(m.getDescriptor()));
    }
    return inPackage(type);
  }

  /** Whether the filter, a package or a class (no method), takes the class {@code type} (a binary name). */
  boolean matchesClass(String type) {
    if (type == null || methodName != null) {
      return false;
    }
    return className != null ? className.equals(type) : inPackage(type);
  }

  private boolean inPackage(String type) {
    int dot = type.lastIndexOf('.');
    return packageName.isEmpty() ? dot < 0 : dot == packageName.length() && type.startsWith(packageName);
  }
}
