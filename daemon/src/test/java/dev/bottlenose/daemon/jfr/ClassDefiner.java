package dev.bottlenose.daemon.jfr;

import java.io.IOException;
import java.io.InputStream;

/** Defines one small class from its bytes again and again, each time in a class loader of its own, as a plugin host does. */
public final class ClassDefiner {
  /** The class defined. */
  static final class Defined {}

  private final byte[] bytes;

  public ClassDefiner() throws IOException {
    try (InputStream in = ClassDefiner.class.getResourceAsStream("ClassDefiner$Defined.class")) {
      bytes = in.readAllBytes();
    }
  }

  /** Defines the class {@code times} times on the calling thread. */
  public void define(int times) {
    for (int i = 0; i < times; i++) {
      new OneClass().define();
    }
  }

  private final class OneClass extends ClassLoader {
    OneClass() {
      super(null);
    }

    void define() {
      defineClass(Defined.class.getName(), bytes, 0, bytes.length);
    }
  }
}
