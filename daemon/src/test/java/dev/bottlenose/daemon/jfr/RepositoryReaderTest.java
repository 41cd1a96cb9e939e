package dev.bottlenose.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.bottlenose.daemon.attach.CompiledBeforeAttach;
import dev.bottlenose.daemon.channel.Uids;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JFR repository an agent names is read only if it is the target user's own directory of its own files. */
class RepositoryReaderTest {
  private static final int ME = Uids.self();
  @TempDir
  Path temp;

  private Path repository() throws IOException {
    return Files.createDirectory(temp.resolve("repo"), PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwxr-xr-x")));
  }

  @Test
  void takesTheTargetUsersOwnDirectory() throws IOException {
    Path repo = repository();
    Files.writeString(repo.resolve("2026_11_26_10_00_00.jfr"), "chunk");
    Files.writeString(repo.resolve("notes.txt"), "not read");
    assertThat(RepositoryReader.checked(repo.toString(), ME)).isEqualTo(repo);
  }

  @Test
  void refusesRelativeAndUnnormalPaths() throws IOException {
    Path repo = repository();
    assertThatThrownBy(() -> RepositoryReader.checked("repo", ME)).hasMessage("'repo' is not an absolute, normal path");
    String dotted = repo.getParent() + "/x/../repo";
    assertThatThrownBy(() -> RepositoryReader.checked(dotted, ME)).hasMessage("'" + dotted + "' is not an absolute, normal path");
    assertThatThrownBy(() -> RepositoryReader.checked("", ME)).hasMessageContaining("not an absolute");
    assertThatThrownBy(() -> RepositoryReader.checked(temp + "/missing", ME)).hasMessage(temp + "/missing does not exist");
  }

  @Test
  void refusesASymbolicLinkAndAFile() throws IOException {
    Path repo = repository();
    Path link = Files.createSymbolicLink(temp.resolve("link"), repo);
    assertThatThrownBy(() -> RepositoryReader.checked(link.toString(), ME)).hasMessage(link + " is a symbolic link");
    Path file = Files.writeString(temp.resolve("file.jfr"), "x");
    assertThatThrownBy(() -> RepositoryReader.checked(file.toString(), ME)).hasMessage(file + " is not a directory");
  }

  @Test
  void refusesADirectoryOthersMayWriteAndLinkedOrForeignChunks() throws IOException {
    Path repo = repository();
    Files.setPosixFilePermissions(repo, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThatThrownBy(() -> RepositoryReader.checked(repo.toString(), ME)).hasMessage(repo + " may be written by other users");
    Files.setPosixFilePermissions(repo, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path linked = Files.createSymbolicLink(repo.resolve("a.jfr"), Path.of("/etc/hostname"));
    assertThatThrownBy(() -> RepositoryReader.checked(repo.toString(), ME)).hasMessage(linked + " is a symbolic link");
  }

  @Test
  void refusesAnotherUsersDirectory() throws IOException {
    assumeTrue(ME == 0, "only root can give a directory to another user");
    Path repo = repository();
    Files.setAttribute(repo, "unix:uid", 65534);
    assertThatThrownBy(() -> RepositoryReader.checked(repo.toString(), ME))
        .hasMessage(repo + " belongs to uid 65534, not to the target's uid 0");
    assertThatThrownBy(() -> RepositoryReader.checked(temp.toString(), 65534))
        .hasMessage(temp + " belongs to uid 0, not to the target's uid 65534");
  }

  /**
   * The agent starts its recording before the daemon's reader opens the repository (the JIT recompiling what JFR's
   * start threw away begins at once): read from the moment the daemon began attaching, the reader counts the
   * compilations of that gap too, although this JVM's JFR clock can run behind the wall clock by a few milliseconds a
   * second of the current chunk's age (see JfrClock) and a recording an earlier test left running keeps the chunk
   * open, so that compilations just after the wall-clock instant carry JFR times before it.
   */
  @Test
  void readsTheEventsRecordedBeforeItStartedFromTheInstantItIsGiven() throws Exception {
    Instant began = Instant.now();
    try (Recording recording = new Recording()) {
      recording.enable("jdk.Compilation").withThreshold(Duration.ZERO);
      recording.setToDisk(true);
      recording.start();
      long sum = 0;
      for (int i = 0; i < 200_000; i++) {
        sum += hot(i);
      }
      assertThat(sum).isPositive();
      Thread.sleep(1_000); // the JIT compiles in the background
      // no compilation is recorded after this: what the reader counts happened before it started
      recording.disable("jdk.Compilation");
      Path repo = Path.of(System.getProperty("jdk.jfr.repository"));
      try (RepositoryReader reader = new RepositoryReader(repo, ProcessHandle.current().pid(), 20_000_000L, d -> { })) {
        // as if hot had been compiled before the attach: compiling it again is the attach's wake, the tool's JIT
        reader.sources().compiledBeforeAttach(CompiledBeforeAttach.parse("1 4 0 "
            + CompiledBeforeAttach.method(RepositoryReaderTest.class.getName(), "hot", "(I)J") + " [0x1]"));
        reader.start(began);
        await().atMost(Duration.ofSeconds(20)).until(() -> reader.sources().toolJitNanos() > 0);
      }
    }
  }

  private static long hot(int i) {
    return (i * 31L) ^ (i >>> 3) | 1;
  }

  @Test
  void stopsReadingWhenALinkAppearsAmongTheChunks() throws IOException {
    Path repo = repository();
    try (RepositoryReader reader = new RepositoryReader(repo, ProcessHandle.current().pid(), 20_000_000L, d -> { })) {
      reader.start();
      assertThat(reader.status()).doesNotContainKey("stopped");
      Path link = Files.createSymbolicLink(repo.resolve("b.jfr"), Path.of("/etc/hostname"));
      await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(reader.status())
          .containsEntry("stopped", "refused to read on: " + link + " is a symbolic link"));
    }
  }
}
