package dev.bottlenose.agent;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Where a waiting agent puts its socket: {@code agents} in the user's private run directory, the one the daemon
 * keeps ({@code $BOTTLENOSE_HOME/run}, else {@code ~/.bottlenose/run}). Each level is made {@code 0700} when
 * missing and otherwise taken only if it is a real directory (not a symbolic link) of this process's uid that
 * no group or other may read, write or enter: the daemon's rules for that directory, checked here with the JDK
 * alone, as {@link TokenFile} checks its file.
 */
final class RunDirectory {
  /** The variable that moves the private directory, as for the daemon. */
  static final String HOME_ENV = "BOTTLENOSE_HOME";
  static final Set<PosixFilePermission> MODE = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private RunDirectory() {}

  /**
   * {@code <private directory>/run/agents} of this process's user, made or checked. A relative path (a user
   * without a home has {@code user.home=?}) is refused rather than made in the program's working directory.
   */
  static Path agents() throws IOException {
    String env = System.getenv(HOME_ENV);
    Path home = env != null && !env.isBlank() ? Path.of(env)
        : Path.of(System.getProperty("user.home", ""), ".bottlenose");
    if (!home.isAbsolute()) {
      throw new IOException("no private directory: " + home + " is not an absolute path; set " + HOME_ENV);
    }
    return agents(home, ownUid());
  }

  /** {@code <home>/run/agents}, each of the three made or checked for {@code uid}. */
  static Path agents(Path home, int uid) throws IOException {
    Path dir = home.toAbsolutePath().normalize();
    privateDirectory(dir, uid);
    privateDirectory(dir.resolve("run"), uid);
    privateDirectory(dir.resolve("run").resolve("agents"), uid);
    return dir.resolve("run").resolve("agents");
  }

  /** Makes {@code dir} {@code 0700} (with missing parents) if it is not there, then checks it. */
  static void privateDirectory(Path dir, int uid) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      Files.createDirectories(dir.getParent());
      try {
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(MODE));
      } catch (FileAlreadyExistsException raced) {
        // made by another process at the same moment: checked below like any other
      }
    }
    PosixFileAttributes attributes = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (attributes.isSymbolicLink()) {
      throw new IOException(dir + " is a symbolic link");
    }
    if (!attributes.isDirectory()) {
      throw new IOException(dir + " is not a directory");
    }
    int owner = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    if (owner != uid) {
      throw new IOException(dir + " belongs to uid " + owner + ", not to this process's uid " + uid);
    }
    Set<PosixFilePermission> open = EnumSet.copyOf(OTHERS);
    open.retainAll(attributes.permissions());
    if (!open.isEmpty()) {
      throw new IOException(dir + " is open to other users (" + PosixFilePermissions.toString(attributes.permissions())
          + "); make it private: chmod 700 " + dir);
    }
  }

  /** This process's uid (the owner of {@code /proc/self}). */
  static int ownUid() throws IOException {
    return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
  }
}
