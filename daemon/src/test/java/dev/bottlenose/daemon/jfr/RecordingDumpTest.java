package dev.bottlenose.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.agent.wire.DumpReply;
import dev.bottlenose.daemon.channel.Uids;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the daemon reads of a dump the agent names: only its target user's own private JFR file, then deleted. */
class RecordingDumpTest {
  private static final byte[] JFR = {'F', 'L', 'R', 0, 0, 2, 0, 1};
  @TempDir
  Path tmp;
  private final int uid = Uids.self();

  private Path dump(String dirMode, byte[] bytes) throws IOException {
    Path dir = Files.createDirectory(tmp.resolve("bottlenose-jfr-1"));
    Path file = Files.write(dir.resolve("recording.jfr"), bytes);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(dirMode));
    return file;
  }

  private static DumpReply reply(Path file, long bytes) {
    return new DumpReply(file.toString(), bytes, 1_000, 2_000);
  }

  @Test
  void aPrivateJfrFileIsReadAndDeletedWithItsDirectory() throws Exception {
    Path file = dump("rwx------", JFR);
    RecordingDump d = RecordingDump.read(reply(file, JFR.length), uid, 100);
    assertThat(d.bytes()).isEqualTo(JFR);
    assertThat(d.recordingStartMillis()).isEqualTo(1_000);
    assertThat(d.dumpedAtMillis()).isEqualTo(2_000);
    assertThat(file).doesNotExist();
    assertThat(file.getParent()).doesNotExist();
  }

  @Test
  void aLinkAnOpenDirectoryAnotherUsersFileOrARelativePathIsNotReadNorDeleted() throws Exception {
    Path secret = Files.write(tmp.resolve("secret"), JFR);
    Path dir = Files.createDirectory(tmp.resolve("bottlenose-jfr-2"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    Path link = Files.createSymbolicLink(dir.resolve("recording.jfr"), secret);
    assertThatThrownBy(() -> RecordingDump.read(reply(link, JFR.length), uid, 100)).isInstanceOf(IOException.class)
        .hasMessage(link + " is a symbolic link");
    assertThat(secret).exists();
    assertThat(link).exists();

    Path open = dump("rwxr-xr-x", JFR);
    assertThatThrownBy(() -> RecordingDump.read(reply(open, JFR.length), uid, 100)).isInstanceOf(IOException.class)
        .hasMessage(open.getParent() + " may be entered by other users (rwxr-xr-x)");
    assertThat(open).exists();
    Files.setPosixFilePermissions(open.getParent(), PosixFilePermissions.fromString("rwx------"));
    assertThatThrownBy(() -> RecordingDump.read(reply(open, JFR.length), uid + 1, 100)).isInstanceOf(IOException.class)
        .hasMessage(open.getParent() + " belongs to uid " + uid + ", not to the target's uid " + (uid + 1));
    assertThat(open).exists();
    assertThatThrownBy(() -> RecordingDump.read(new DumpReply("recording.jfr", 8, 0, 0), uid, 100))
        .isInstanceOf(IOException.class).hasMessage("'recording.jfr' is not an absolute, normal path of a file");
    assertThatThrownBy(() -> RecordingDump.read(new DumpReply(open.getParent() + "/../" + open.getParent()
        .getFileName() + "/recording.jfr", 8, 0, 0), uid, 100)).isInstanceOf(IOException.class)
        .hasMessageContaining("is not an absolute, normal path");
  }

  @Test
  void aFileOverTheCapOrNotAJfrFileIsRefusedAndDeleted() throws Exception {
    Path large = dump("rwx------", JFR);
    assertThatThrownBy(() -> RecordingDump.read(reply(large, JFR.length), uid, 4)).isInstanceOf(IOException.class)
        .hasMessage("the recording is 8 bytes, more than the 4 bytes a daemon sends");
    assertThat(large.getParent()).doesNotExist();

    Path text = dump("rwx------", "hello, world".getBytes());
    assertThatThrownBy(() -> RecordingDump.read(reply(text, 12), uid, 100)).isInstanceOf(IOException.class)
        .hasMessage(text + " is not a JFR file (it does not begin with FLR\\0)");
    assertThat(text.getParent()).doesNotExist();
  }
}
