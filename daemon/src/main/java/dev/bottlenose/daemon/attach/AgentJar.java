package dev.bottlenose.daemon.attach;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the agent jar: {@code -Dbottlenose.agent.jar}, else next to the jar this class came from. */
public final class AgentJar {
  public static final String PROPERTY = "bottlenose.agent.jar";
  static final String FILE_NAME = "bottlenose-agent.jar";

  private AgentJar() {}

  /** Where the agent jar should be, whether or not it is there. */
  public static Path expected() {
    String configured = System.getProperty(PROPERTY);
    return (configured != null ? Path.of(configured) : besideOwnJar()).toAbsolutePath();
  }

  /** The agent jar; throws naming where it was looked for when it is missing. */
  public static Path locate() throws AttachException {
    String configured = System.getProperty(PROPERTY);
    Path jar = expected();
    if (!Files.isRegularFile(jar)) {
      throw new AttachException("agent jar not found at " + jar.toAbsolutePath()
          + (configured != null ? " (from -D" + PROPERTY + ")" : "")
          + "; build it with `mvn -DskipTests package` or set -D" + PROPERTY + "=<path>");
    }
    return jar.toAbsolutePath();
  }

  private static Path besideOwnJar() {
    try {
      Path own = Path.of(AgentJar.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return own.getParent().resolve(FILE_NAME);
    } catch (URISyntaxException | RuntimeException e) {
      return Path.of(FILE_NAME);
    }
  }
}
