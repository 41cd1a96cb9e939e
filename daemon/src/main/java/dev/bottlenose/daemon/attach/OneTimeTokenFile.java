package dev.bottlenose.daemon.attach;

import dev.bottlenose.bus.PrivateDirectory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

/**
 * The file that hands a launched agent its channel token, so the token is never on a command line:
 * {@code agent-<random>.token}, {@code 0600} in the user's private {@code run} directory ({@code 0700},
 * {@link PrivateDirectory}). The agent reads it and deletes it when it starts; closing deletes it too, in case
 * the agent never started. Files a killed daemon left behind are removed once they are an hour old.
 */
public final class OneTimeTokenFile implements AutoCloseable {
  static final String PREFIX = "agent-";
  static final String SUFFIX = ".token";
  static final Duration STALE = Duration.ofHours(1);

  private final PrivateDirectory directory;
  private final String name;
  private final Path path;

  private OneTimeTokenFile(PrivateDirectory directory, String name, Path path) {
    this.directory = directory;
    this.name = name;
    this.path = path;
  }

  /** Writes {@code token} to a new file in the user's private run directory. */
  public static OneTimeTokenFile write(String token) throws AttachException {
    return write(PrivateDirectory.ofUser(), token);
  }

  /** Writes {@code token} to a new file in the {@code run} sub-directory of {@code home}. */
  public static OneTimeTokenFile write(PrivateDirectory home, String token) throws AttachException {
    try {
      PrivateDirectory run = home.subdirectory("run");
      removeStale(run.path());
      byte[] random = new byte[16];
      new SecureRandom().nextBytes(random);
      String name = PREFIX + HexFormat.of().formatHex(random) + SUFFIX;
      return new OneTimeTokenFile(run, name, run.write(name, token.getBytes(StandardCharsets.UTF_8)));
    } catch (RuntimeException e) {
      throw new AttachException("cannot write the agent's one-time token file: " + e.getMessage(), e);
    }
  }

  public Path path() {
    return path;
  }

  private static void removeStale(Path run) {
    Instant before = Instant.now().minus(STALE);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(run, PREFIX + "*" + SUFFIX)) {
      for (Path f : files) {
        if (Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS).toInstant().isBefore(before)) {
          Files.deleteIfExists(f);
        }
      }
    } catch (IOException e) {
      // a stale file is private and its token useless (its daemon is gone); leave it
    }
  }

  /** Deletes the file if the agent has not. */
  @Override
  public void close() {
    directory.delete(name);
  }
}
