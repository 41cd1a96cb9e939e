package dev.bottlenose.bus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * A directory only its owner can enter ({@code 0700}), holding files only its owner can read ({@code 0600}):
 * where Bottlenose keeps what must not leak to other local users (the cluster secret, the web token, the
 * one-time files that hand an agent its channel). By default {@code ~/.bottlenose}, or {@value #HOME_ENV}.
 *
 * <p>It refuses a directory or file that another user owns or that others may read or write, a symbolic
 * link in their place, and a file of the wrong kind, naming the path and what to do.
 */
public final class PrivateDirectory {
  /** Where the directory is, instead of {@code ~/.bottlenose}. */
  public static final String HOME_ENV = "BOTTLENOSE_HOME";
  static final Set<PosixFilePermission> DIRECTORY_MODE = PosixFilePermissions.fromString("rwx------");
  static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private final Path path;

  private PrivateDirectory(Path path) {
    this.path = path;
  }

  /** {@value #HOME_ENV} if set, else {@code ~/.bottlenose}; created {@code 0700} if missing, checked if present. */
  public static PrivateDirectory ofUser() {
    String home = System.getenv(HOME_ENV);
    return at(home != null && !home.isBlank() ? Path.of(home) : Path.of(System.getProperty("user.home"), ".bottlenose"));
  }

  /** The private directory at {@code path}, created {@code 0700} (with missing parents) if needed, else checked. */
  public static PrivateDirectory at(Path path) {
    Path dir = path.toAbsolutePath().normalize();
    try {
      if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectories(dir.getParent());
        try {
          Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIRECTORY_MODE));
        } catch (FileAlreadyExistsException raced) {
          // another process made it first; it is checked below like any existing one
        }
      }
      check(dir, true);
      return new PrivateDirectory(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot use " + dir + " as Bottlenose's private directory: " + e.getMessage(), e);
    }
  }

  public Path path() {
    return path;
  }

  /** A sub-directory, private like this one (created if missing). */
  public PrivateDirectory subdirectory(String name) {
    return at(path.resolve(checkedName(name)));
  }

  /** The file's bytes if it exists (checked: a regular file of this user, {@code 0600}), else empty. */
  public Optional<byte[]> read(String name) {
    Path file = path.resolve(checkedName(name));
    try {
      if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        return Optional.empty();
      }
      check(file, false);
      return Optional.of(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Writes {@code bytes} to a new {@code 0600} file unless one is there already, atomically (no reader sees
   * half a file); returns the file's bytes afterwards: {@code bytes}, or what another process wrote first.
   */
  public byte[] createIfAbsent(String name, byte[] bytes) {
    Path file = path.resolve(checkedName(name));
    Path temporary = writeTemporary(name, bytes);
    try {
      Files.createLink(file, temporary);
      return bytes;
    } catch (FileAlreadyExistsException exists) {
      return read(name).orElseThrow(() -> new IllegalStateException(file + " vanished while it was read"));
    } catch (IOException | UnsupportedOperationException e) {
      throw new UncheckedIOException("cannot create " + file + ": " + e.getMessage(),
          e instanceof IOException io ? io : new IOException(e));
    } finally {
      deleteQuietly(temporary);
    }
  }

  /** Writes {@code bytes} to a {@code 0600} file, replacing it atomically; returns its path. */
  public Path write(String name, byte[] bytes) {
    Path file = path.resolve(checkedName(name));
    Path temporary = writeTemporary(name, bytes);
    try {
      try {
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
      return file;
    } catch (IOException e) {
      deleteQuietly(temporary);
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /** Deletes the file if it is there. */
  public void delete(String name) {
    deleteQuietly(path.resolve(checkedName(name)));
  }

  private Path writeTemporary(String name, byte[] bytes) {
    try {
      Path temporary = Files.createTempFile(path, "." + name + ".", ".tmp", PosixFilePermissions.asFileAttribute(FILE_MODE));
      Files.write(temporary, bytes);
      return temporary;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write in " + path + ": " + e.getMessage(), e);
    }
  }

  /** Owned by this process's user, not a link, of the right kind, and nobody else may read, write or enter it. */
  static void check(Path p, boolean directory) throws IOException {
    PosixFileAttributes attributes = Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
        .readAttributes();
    if (attributes.isSymbolicLink()) {
      throw new IOException(p + " is a symbolic link; Bottlenose keeps its secrets only in a real directory and files");
    }
    if (directory ? !attributes.isDirectory() : !attributes.isRegularFile()) {
      throw new IOException(p + " is not a " + (directory ? "directory" : "regular file"));
    }
    String me = System.getProperty("user.name");
    if (!attributes.owner().getName().equals(me)) {
      throw new IOException(p + " belongs to " + attributes.owner().getName() + ", not to " + me);
    }
    Set<PosixFilePermission> open = EnumSet.noneOf(PosixFilePermission.class);
    open.addAll(attributes.permissions());
    open.retainAll(OTHERS);
    if (!open.isEmpty()) {
      throw new IOException(p + " is open to other users (" + PosixFilePermissions.toString(attributes.permissions())
          + "); make it private: chmod " + (directory ? "700" : "600") + " " + p);
    }
  }

  private static String checkedName(String name) {
    if (name.isEmpty() || name.contains("/") || name.equals(".") || name.equals("..") || name.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("not a plain file name: '" + name + "'");
    }
    return name;
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // a temporary or one-time file that cannot be deleted is private all the same
    }
  }

  @Override
  public String toString() {
    return path.toString();
  }
}
