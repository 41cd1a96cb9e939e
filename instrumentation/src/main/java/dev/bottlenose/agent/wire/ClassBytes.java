package dev.bottlenose.agent.wire;

import java.util.Map;

/** The {@code classBytes} request: a loaded class by binary name, answered with the length and SHA-256 of its bytes now. */
public record ClassBytes(String className) {
  public static final String OP = "classBytes";

  public ClassBytes {
    if (className == null || className.isBlank()) {
      throw new WireException("className", className, "classBytes needs a className, not " + className);
    }
  }

  public Map<String, Object> toMap() {
    return Map.of("className", className);
  }

  public static ClassBytes fromMap(Map<String, ?> m) {
    return new ClassBytes(Fields.text(m, "className", null));
  }
}
