package dev.bottlenose.agent;

import dev.bottlenose.agent.sources.JfrRecording;
import dev.bottlenose.agent.wire.Dump;
import dev.bottlenose.agent.wire.DumpReply;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * One session's dumps of the agent's JFR recording ({@code dump}): each in a new directory that only the target's
 * user may enter ({@code 0700}, made by {@link Files#createTempDirectory} in {@code java.io.tmpdir}), as one file
 * that only that user may read ({@code 0600}), its path told to the session that asked alone. The daemon reads it and
 * deletes both; whatever of the session's last dump is still there is deleted when it dumps again or ends, so no
 * dump outlives its session. Nothing here throws into the program: every failure is the request's answer.
 */
final class RecordingDumps {
  static final String FILE_NAME = "recording.jfr";
  private final JfrRecording recording;
  private Path last;

  RecordingDumps(JfrRecording recording) {
    this.recording = recording;
  }

  /** Dumps the recording; a JVM without JFR, no running recording or a failed write is a refusal saying why. */
  synchronized DumpReply dump(Dump asked) throws RequestException {
    if (recording == null) {
      throw new RequestException("NO_RECORDING", "this JVM has no JFR (module jdk.jfr): nothing is recorded");
    }
    deleteLast();
    Path dir;
    try {
      dir = Files.createTempDirectory("bottlenose-jfr-", PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwx------")));
    } catch (IOException | RuntimeException e) {
      throw new RequestException("DUMP_FAILED", "cannot make a private directory for the dump in "
          + System.getProperty("java.io.tmpdir") + ": " + e);
    }
    last = dir;
    Path file = dir.resolve(FILE_NAME);
    try {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      long startMillis = recording.dump(file);
      return new DumpReply(file.toString(), Files.size(file), startMillis, System.currentTimeMillis());
    } catch (IllegalStateException e) {
      deleteLast();
      throw new RequestException("NO_RECORDING", e.getMessage());
    } catch (IOException | RuntimeException e) {
      deleteLast();
      throw new RequestException("DUMP_FAILED", "dumping the JFR recording to " + file + " failed: " + e);
    }
  }

  /** The session has ended: its last dump, if the daemon left it, goes. */
  synchronized void close() {
    deleteLast();
  }

  private void deleteLast() {
    Path dir = last;
    last = null;
    if (dir == null) {
      return;
    }
    try {
      if (Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
          for (Path f : files) {
            Files.deleteIfExists(f);
          }
        }
        Files.deleteIfExists(dir);
      }
    } catch (IOException | RuntimeException e) {
      AgentLog.line("could not delete the JFR dump " + dir + ": " + e);
    }
  }
}
