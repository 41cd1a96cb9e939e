package dev.bottlenose.daemon.jfr;

import dev.bottlenose.agent.wire.DumpReply;
import dev.bottlenose.daemon.channel.Uids;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Objects;
import java.util.Set;

/**
 * The target's JFR recording as the agent dumped it ({@code dump}), read into the daemon: {@code bytes}, a JFR file
 * (chunks, each beginning {@code FLR\0}), when the recording started and when it was dumped (epoch milliseconds).
 *
 * <p>The file's path comes from the agent, so it is checked before anything is read, as the repository is
 * ({@link RepositoryReader#checked}): an absolute, normal path of a regular file (not a link) that the target's
 * user owns, in a directory of that user's (not a link) that no one else may enter; not larger than the cap. It
 * is read without following a link, checked to be the same file afterwards and to begin as a JFR file does; then
 * it and its directory are deleted, whatever was read. A check that fails leaves both where they are (the agent
 * deletes them when the session ends) and throws an {@link IOException} saying what was wrong.
 */
public record RecordingDump(byte[] bytes, long recordingStartMillis, long dumpedAtMillis) {
  /** The first bytes of every JFR chunk. */
  static final byte[] MAGIC = {'F', 'L', 'R', 0};
  private static final Set<PosixFilePermission> OTHERS = Set.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  /**
   * Reads and deletes the file the agent named in {@code reply}, which {@code ownerUid} (the target's user) must own;
   * larger than {@code maxBytes} is refused (and deleted).
   */
  public static RecordingDump read(DumpReply reply, int ownerUid, long maxBytes) throws IOException {
    Path file = checked(reply.path(), ownerUid);
    try {
      PosixFileAttributes before = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (before.size() > maxBytes) {
        throw new IOException("the recording is " + before.size() + " bytes, more than the " + maxBytes
            + " bytes a daemon sends");
      }
      byte[] bytes = readAtMost(file, maxBytes);
      PosixFileAttributes after = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!Objects.equals(before.fileKey(), after.fileKey()) || after.isSymbolicLink()) {
        throw new IOException(file + " was replaced while it was read");
      }
      if (bytes.length < MAGIC.length || bytes[0] != MAGIC[0] || bytes[1] != MAGIC[1] || bytes[2] != MAGIC[2]
          || bytes[3] != MAGIC[3]) {
        throw new IOException(file + " is not a JFR file (it does not begin with FLR\\0)");
      }
      return new RecordingDump(bytes, reply.recordingStartMillis(), reply.dumpedAtMillis());
    } finally {
      delete(file);
    }
  }

  /** Deletes the file and its directory; what cannot be deleted (the directory holds more) the agent deletes. */
  private static void delete(Path file) {
    try {
      Files.deleteIfExists(file);
      Files.deleteIfExists(file.getParent());
    } catch (IOException | RuntimeException e) {
      // left to the agent, which deletes its session's dump when the session ends
    }
  }

  /**
   * The dump's path {@code named} by the agent, if the daemon may read and delete it: an absolute, normal path of a
   * regular file (not a link) of {@code ownerUid}, in a directory (not a link) of {@code ownerUid} that neither its
   * group nor others may enter; otherwise an {@link IOException} saying what is wrong.
   */
  static Path checked(String named, int ownerUid) throws IOException {
    Path path;
    try {
      path = Path.of(named);
    } catch (InvalidPathException e) {
      throw new IOException("'" + named + "' is not a path");
    }
    if (!path.isAbsolute() || !path.normalize().equals(path) || path.getParent() == null) {
      throw new IOException("'" + named + "' is not an absolute, normal path of a file");
    }
    Path dir = path.getParent();
    PosixFileAttributes d = attributes(dir);
    if (d.isSymbolicLink() || !d.isDirectory()) {
      throw new IOException(dir + " is " + (d.isSymbolicLink() ? "a symbolic link" : "not a directory"));
    }
    owned(dir, ownerUid);
    if (d.permissions().stream().anyMatch(OTHERS::contains)) {
      throw new IOException(dir + " may be entered by other users (" + java.nio.file.attribute.PosixFilePermissions
          .toString(d.permissions()) + ")");
    }
    PosixFileAttributes f = attributes(path);
    if (f.isSymbolicLink() || !f.isRegularFile()) {
      throw new IOException(path + " is " + (f.isSymbolicLink() ? "a symbolic link" : "not a regular file"));
    }
    owned(path, ownerUid);
    return path;
  }

  private static PosixFileAttributes attributes(Path p) throws IOException {
    try {
      return Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      throw new IOException(p + " does not exist");
    }
  }

  private static void owned(Path p, int ownerUid) throws IOException {
    int owner = Uids.owner(p);
    if (owner != ownerUid) {
      throw new IOException(p + " belongs to uid " + owner + ", not to the target's uid " + ownerUid);
    }
  }

  /** The file's bytes, without following a link; more than {@code maxBytes} (it grew) is refused. */
  private static byte[] readAtMost(Path file, long maxBytes) throws IOException {
    try (SeekableByteChannel in = Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      long size = in.size();
      if (size > maxBytes) {
        throw new IOException("the recording is " + size + " bytes, more than the " + maxBytes + " bytes a daemon sends");
      }
      ByteBuffer buffer = ByteBuffer.allocate((int) size);
      while (buffer.hasRemaining() && in.read(buffer) >= 0) {
        // reads on to the size it had when opened
      }
      if (buffer.hasRemaining()) {
        throw new IOException(file + " became shorter while it was read");
      }
      return buffer.array();
    }
  }
}
