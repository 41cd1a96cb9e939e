package dev.bottlenose.agent.discovery;

/** Java names for JVM type names: {@code [B} to {@code byte[]}, {@code [Ljava.lang.String;} to {@code java.lang.String[]}. */
public final class TypeNames {
  public static String javaName(String name) {
    if (name == null || !name.startsWith("[")) {
      return name;
    }
    int dims = 0;
    while (name.charAt(dims) == '[') {
      dims++;
    }
    String element = element(name.substring(dims));
    return element + "[]".repeat(dims);
  }

  private static String element(String d) {
    return switch (d.charAt(0)) {
      case 'B' -> "byte";
      case 'C' -> "char";
      case 'D' -> "double";
      case 'F' -> "float";
      case 'I' -> "int";
      case 'J' -> "long";
      case 'S' -> "short";
      case 'Z' -> "boolean";
      case 'L' -> d.substring(1, d.length() - 1).replace('/', '.');
      default -> d;
    };
  }

  private TypeNames() {}
}
