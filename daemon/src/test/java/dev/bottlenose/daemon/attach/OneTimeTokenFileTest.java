package dev.bottlenose.daemon.attach;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.bus.PrivateDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OneTimeTokenFileTest {
  @TempDir
  Path temp;

  @Test
  void writesTheTokenPrivatelyUnderARandomNameAndDeletesItOnClose() throws Exception {
    PrivateDirectory home = PrivateDirectory.at(temp.resolve("home"));
    Path path;
    try (OneTimeTokenFile file = OneTimeTokenFile.write(home, "3f9c")) {
      path = file.path();
      assertThat(path.getParent()).isEqualTo(home.path().resolve("run"));
      assertThat(path.getFileName().toString()).matches("agent-[0-9a-f]{32}\\.token");
      assertThat(path).hasContent("3f9c");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path))).isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path.getParent()))).isEqualTo("rwx------");
      try (OneTimeTokenFile other = OneTimeTokenFile.write(home, "3f9c")) {
        assertThat(other.path()).isNotEqualTo(path);
      }
    }
    assertThat(path).doesNotExist();
  }

  @Test
  void removesFilesAKilledDaemonLeftAnHourAgo() throws Exception {
    PrivateDirectory home = PrivateDirectory.at(temp.resolve("home"));
    Path run = home.subdirectory("run").path();
    Path stale = Files.writeString(run.resolve("agent-old.token"), "x");
    Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minusSeconds(2 * 3600)));
    Path recent = Files.writeString(run.resolve("agent-new.token"), "y");
    OneTimeTokenFile.write(home, "t").close();
    assertThat(stale).doesNotExist();
    assertThat(recent).exists();
  }
}
