package dev.bottlenose.tests.harness;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The class path a target program runs on: this JVM's (the test classes and the libraries the programs use) without
 * Bottlenose's own modules. A program under test is somebody else's: with the modules on its class path, the
 * agent's classes would load from there, unshaded and beside the program's own copy of ASM, instead of from the
 * agent jar the attach appends, and the target would not be the one a user has.
 */
public final class TargetClasspath {
  private TargetClasspath() {}

  /** This JVM's class path without Bottlenose's modules. */
  public static String of() {
    return without(System.getProperty("java.class.path"));
  }

  /** {@code classPath} without its entries that are Bottlenose modules: their jars and their {@code target/classes}. */
  static String without(String classPath) {
    List<String> kept = new ArrayList<>();
    for (String entry : classPath.split(File.pathSeparator)) {
      if (!entry.isEmpty() && !isModule(Path.of(entry))) {
        kept.add(entry);
      }
    }
    return String.join(File.pathSeparator, kept);
  }

  private static boolean isModule(Path entry) {
    Path name = entry.getFileName();
    if (name == null) {
      return false;
    }
    if (name.toString().startsWith("bottlenose-") && name.toString().endsWith(".jar")) {
      return true;
    }
    Path parent = entry.getParent();
    return name.toString().equals("classes") && parent != null && parent.getFileName() != null
        && parent.getFileName().toString().equals("target");
  }
}
