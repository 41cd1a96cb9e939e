package dev.bottlenose.cli;

import java.util.Set;

/**
 * Bottlenose's own JVMs (a command, a daemon, the service), told by the main class or jar the attach mechanism
 * reports for them: they are never offered as targets ({@code bottlenose jvms}, the JVMs page).
 */
public final class OwnJvms {
  private static final Set<String> MAINS = Set.of("dev.bottlenose.daemon.cli.Main", "dev.bottlenose.web.cli.Main");
  private static final Set<String> JARS = Set.of("bottlenose-daemon-all.jar", "bottlenose-web-all.jar");

  private OwnJvms() {}

  /** Whether a JVM whose attach display name (its main class or jar, then its arguments) is this is one of ours. */
  public static boolean isOwn(String displayName) {
    if (displayName == null || displayName.isBlank()) {
      return false;
    }
    String main = displayName.strip().split("\\s+", 2)[0];
    String file = main.substring(main.lastIndexOf('/') + 1);
    return MAINS.contains(main) || JARS.contains(file);
  }
}
