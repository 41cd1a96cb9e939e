package dev.bottlenose.agent.discovery;

import dev.bottlenose.model.ReadableNames;

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
    if (d.charAt(0) == 'L') {
      return d.substring(1, d.length() - 1).replace('/', '.');
    }
    return d.length() == 1 ? ReadableNames.primitive(d.charAt(0)) : d;
  }

  private TypeNames() {}
}
