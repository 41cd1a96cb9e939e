package dev.bottlenose.agent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/**
 * The one-time file a daemon hands the channel's token in ({@code tokenFile=}), read once and deleted. Only a
 * file nobody else could have written or read is taken: an absolute path, a regular file (not a link) of
 * this process's user that no group or other may read or write, in a directory of this user that no group
 * or other may write (so nobody else could have swapped it). JDK only, as everything in the target.
 */
final class TokenFile {
  static final int MAX_BYTES = 1024;
  private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);
  private static final Set<PosixFilePermission> GROUP_OR_OTHERS_WRITE = EnumSet.of(PosixFilePermission.GROUP_WRITE,
      PosixFilePermission.OTHERS_WRITE);

  private TokenFile() {}

  /**
   * The token in {@code name}, after the checks. Once the file's directory has passed, the file is deleted
   * whether or not the file itself passes.
   */
  static String take(String name) throws IOException {
    Path file = Path.of(name);
    if (!file.isAbsolute() || !file.normalize().equals(file) || file.getParent() == null
        || !file.getFileName().toString().matches("[A-Za-z0-9._-]+\\.token")) {
      throw new IOException("tokenFile=" + name + " is not an absolute, normal path to a *.token file");
    }
    int me = uid(Path.of("/proc/self"), true);
    Path dir = file.getParent();
    PosixFileAttributes d = attributes(dir);
    if (!d.isDirectory() || uid(dir, false) != me || !disjoint(d.permissions(), GROUP_OR_OTHERS_WRITE)) {
      throw new IOException(dir + " is not a directory of uid " + me + " that no one else may write");
    }
    try {
      PosixFileAttributes f = attributes(file);
      if (f.isSymbolicLink()) {
        throw new IOException(file + " is a symbolic link");
      }
      if (!f.isRegularFile()) {
        throw new IOException(file + " is not a regular file");
      }
      int owner = uid(file, false);
      if (owner != me) {
        throw new IOException(file + " belongs to uid " + owner + ", not to this process's uid " + me);
      }
      if (!disjoint(f.permissions(), GROUP_OR_OTHERS)) {
        throw new IOException(file + " is open to other users (" + java.nio.file.attribute.PosixFilePermissions
            .toString(f.permissions()) + ")");
      }
      String token = read(file).trim();
      if (token.isEmpty()) {
        throw new IOException(file + " holds no token");
      }
      return token;
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (IOException | RuntimeException e) {
        AgentLog.line("could not delete the one-time token file " + file + ": " + e);
      }
    }
  }

  private static String read(Path file) throws IOException {
    Set<OpenOption> options = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    try (SeekableByteChannel channel = Files.newByteChannel(file, options)) {
      ByteBuffer buffer = ByteBuffer.allocate(MAX_BYTES + 1);
      while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
        // until the end of the file or one byte more than a token may have
      }
      if (buffer.position() > MAX_BYTES) {
        throw new IOException(file + " is longer than " + MAX_BYTES + " bytes");
      }
      return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
    }
  }

  private static PosixFileAttributes attributes(Path p) throws IOException {
    return Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
  }

  private static int uid(Path p, boolean follow) throws IOException {
    return follow ? (Integer) Files.getAttribute(p, "unix:uid")
        : (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
  }

  private static boolean disjoint(Set<PosixFilePermission> a, Set<PosixFilePermission> b) {
    for (PosixFilePermission p : a) {
      if (b.contains(p)) {
        return false;
      }
    }
    return true;
  }
}
