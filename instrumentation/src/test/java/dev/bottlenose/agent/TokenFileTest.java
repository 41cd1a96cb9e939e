package dev.bottlenose.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent takes a token file only if nobody but its own user could have read or written it, and deletes it. */
class TokenFileTest {
  @TempDir
  Path temp;
  private Path run;

  @BeforeEach
  void privateDirectory() throws IOException {
    run = Files.createDirectory(temp.resolve("run"), PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwx------")));
  }

  private Path tokenFile(String name, String mode, String content) throws IOException {
    Path file = Files.createFile(run.resolve(name), PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    return file;
  }

  @Test
  void readsTheTokenAndDeletesTheFile() throws Exception {
    Path file = tokenFile("agent-1.token", "rw-------", "3f9c00112233\n");
    assertThat(TokenFile.take(file.toString())).isEqualTo("3f9c00112233");
    assertThat(file).doesNotExist();
    assertThat(AgentOptions.parse("port=1,tokenFile=" + tokenFile("agent-2.token", "r--------", "abc")).withTokenRead())
        .isEqualTo(new AgentOptions(1, "abc", 10_000, "daemon"));
  }

  @Test
  void refusesAFileOthersMayReadAndDeletesIt() throws Exception {
    Path file = tokenFile("agent-1.token", "rw-r--r--", "3f9c");
    assertThatThrownBy(() -> TokenFile.take(file.toString())).isInstanceOf(IOException.class)
        .hasMessage(file + " is open to other users (rw-r--r--)");
    assertThat(file).doesNotExist();
  }

  @Test
  void refusesASymbolicLinkAndLeavesWhatItPointsTo() throws Exception {
    Path secret = Files.writeString(temp.resolve("elsewhere.txt"), "not a token");
    Path link = Files.createSymbolicLink(run.resolve("agent-1.token"), secret);
    assertThatThrownBy(() -> TokenFile.take(link.toString())).hasMessage(link + " is a symbolic link");
    assertThat(Files.exists(link, LinkOption.NOFOLLOW_LINKS)).isFalse();
    assertThat(secret).hasContent("not a token");
  }

  @Test
  void refusesRelativeOddlyNamedOrMissingFilesAndOpenDirectories() throws Exception {
    assertThatThrownBy(() -> TokenFile.take("run/agent-1.token")).hasMessageContaining("not an absolute, normal path");
    assertThatThrownBy(() -> TokenFile.take(run + "/../run/agent-1.token")).hasMessageContaining("not an absolute");
    Path notToken = tokenFile("id_rsa", "rw-------", "key");
    assertThatThrownBy(() -> TokenFile.take(notToken.toString())).hasMessageContaining("a *.token file");
    assertThat(notToken).exists();
    assertThatThrownBy(() -> TokenFile.take(run.resolve("agent-none.token").toString())).isInstanceOf(IOException.class);
    Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path file = tokenFile("agent-1.token", "rw-------", "3f9c");
    assertThatThrownBy(() -> TokenFile.take(file.toString())).hasMessageContaining("that no one else may write");
    assertThat(file).exists();
  }

  @Test
  void refusesAnotherUsersFile() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "only root can give a file to another user");
    Path file = tokenFile("agent-1.token", "rw-------", "3f9c");
    Files.setAttribute(file, "unix:uid", 65534);
    assertThatThrownBy(() -> TokenFile.take(file.toString())).hasMessage(file + " belongs to uid 65534, not to this"
        + " process's uid 0");
  }
}
