package dev.bottlenose.daemon.it;

import java.nio.file.Files;
import java.nio.file.Path;

/** The built jars and JDKs the ITs use (system properties set by failsafe). */
final class Jars {
  private Jars() {}

  static Path agent() {
    return existing("bottlenose.agent.jar");
  }

  static Path daemon() {
    return existing("bottlenose.daemon.jar");
  }

  static Path jdk25() {
    return existing("bottlenose.jdk25.home");
  }

  private static Path existing(String property) {
    String value = System.getProperty(property);
    if (value == null || !Files.exists(Path.of(value))) {
      throw new IllegalStateException("-D" + property + " is not set to an existing path: " + value);
    }
    return Path.of(value);
  }
}
