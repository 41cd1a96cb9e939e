package dev.bottlenose.model;

/**
 * Builds and reads {@code /Code} paths: {@code /Code/<package>/<class>/<method><descriptor>[/<form>]}.
 * The package segment is the dotted package name, or {@value #DEFAULT_PACKAGE} for the unnamed one;
 * the class segment is the binary name without the package ({@code Outer$Inner}).
 */
public final class CodePaths {
  public static final String DEFAULT_PACKAGE = "(default)";
  private static final java.util.List<String> PLATFORM = java.util.List.of("java", "javax", "jdk", "sun", "com.sun");

  /**
   * Whether a {@code /Code} path (package, class or method) lies in the Java platform's packages ({@code java},
   * {@code javax}, {@code jdk}, {@code sun}, {@code com.sun} and below): code the program calls, not its own.
   */
  public static boolean inPlatform(ResourcePath code) {
    if (code == null || code.hierarchy() != Hierarchy.CODE || code.isRoot()) {
      return false;
    }
    return inPlatformPackage(code.segments().get(0));
  }

  /** Whether the dotted package {@code name} is one of the platform's ({@link #inPlatform}). */
  public static boolean inPlatformPackage(String name) {
    for (String p : PLATFORM) {
      if (name.startsWith(p) && (name.length() == p.length() || name.charAt(p.length()) == '.')) {
        return true;
      }
    }
    return false;
  }

  /** Whether the class of binary name {@code binaryClassName} is in one of the platform's packages. */
  public static boolean inPlatformClass(String binaryClassName) {
    return inPlatformPackage(packageName(binaryClassName));
  }

  /** {@code /Code/com.acme} for {@code com.acme.Sim}. */
  public static ResourcePath packageOf(String binaryClassName) {
    String pkg = packageName(binaryClassName);
    return ResourcePath.of(Hierarchy.CODE, pkg.isEmpty() ? DEFAULT_PACKAGE : pkg);
  }

  private static String packageName(String binaryClassName) {
    int dot = binaryClassName.lastIndexOf('.');
    return dot < 0 ? "" : binaryClassName.substring(0, dot);
  }

  /** {@code /Code/com.acme/Sim} for {@code com.acme.Sim}. */
  public static ResourcePath ofClass(String binaryClassName) {
    int dot = binaryClassName.lastIndexOf('.');
    return packageOf(binaryClassName).child(binaryClassName.substring(dot + 1));
  }

  /** {@code /Code/com.acme/Sim/step(I)V}; a null descriptor gives the bare name (all overloads). */
  public static ResourcePath method(String binaryClassName, String methodName, String descriptor) {
    return ofClass(binaryClassName).child(descriptor == null ? methodName : methodName + descriptor);
  }

  /** The binary class name a {@code /Code} path of depth 2 or more names. */
  public static String className(ResourcePath path) {
    if (path.hierarchy() != Hierarchy.CODE || path.depth() < 2) {
      throw new IllegalArgumentException("not a /Code class or method path: " + path);
    }
    String pkg = path.segments().get(0);
    String cls = path.segments().get(1);
    return DEFAULT_PACKAGE.equals(pkg) ? cls : pkg + "." + cls;
  }

  /** The method a {@code /Code} path of depth 3 or more names. */
  public static MethodRef methodRef(ResourcePath path) {
    if (path.hierarchy() != Hierarchy.CODE || path.depth() < 3) {
      throw new IllegalArgumentException("not a /Code method path: " + path);
    }
    String m = path.segments().get(2);
    int paren = m.indexOf('(');
    return paren < 0
        ? new MethodRef(className(path), m, null)
        : new MethodRef(className(path), m.substring(0, paren), m.substring(paren));
  }

  private CodePaths() {}
}
