package dev.bottlenose.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivateDirectoryTest {
  @TempDir
  Path temp;

  @Test
  void isCreatedForItsOwnerAloneAndSoAreItsFiles() throws Exception {
    PrivateDirectory dir = PrivateDirectory.at(temp.resolve("a/b/.bottlenose"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.path()))).isEqualTo("rwx------");
    dir.write("token", "t".getBytes(StandardCharsets.UTF_8));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.path().resolve("token")))).isEqualTo("rw-------");
    assertThat(dir.read("token")).hasValueSatisfying(b -> assertThat(new String(b, StandardCharsets.UTF_8)).isEqualTo("t"));
    assertThat(dir.read("missing")).isEmpty();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.subdirectory("run").path())))
        .isEqualTo("rwx------");
    try (var files = Files.list(dir.path())) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("token", "run");
    }
  }

  @Test
  void refusesADirectoryOrFileOthersCanReadAndALinkInPlaceOfAFile() throws Exception {
    Path open = Files.createDirectory(temp.resolve("open"), PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwxr-xr-x")));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertThatThrownBy(() -> PrivateDirectory.at(open)).isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("is open to other users (rwxr-xr-x); make it private: chmod 700 " + open);
    PrivateDirectory dir = PrivateDirectory.at(temp.resolve("private"));
    Path readable = dir.path().resolve("cluster.secret");
    Files.writeString(readable, "x");
    Files.setPosixFilePermissions(readable, PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(() -> dir.read("cluster.secret")).hasMessageContaining("chmod 600 " + readable);
    Files.createSymbolicLink(dir.path().resolve("link"), readable);
    assertThatThrownBy(() -> dir.read("link")).hasMessageContaining("is a symbolic link");
    assertThatThrownBy(() -> dir.read("../x")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theFirstOfManyConcurrentCreatorsWinsAndEveryoneReadsItsSecret() throws Exception {
    PrivateDirectory dir = PrivateDirectory.at(temp.resolve("race"));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<String>> made = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        Callable<String> load = () -> ClusterSecret.inDirectory(dir).clusterName();
        made.add(pool.submit(load));
      }
      var names = new HashSet<String>();
      for (Future<String> f : made) {
        names.add(f.get());
      }
      assertThat(names).hasSize(1);
    } finally {
      pool.shutdownNow();
    }
    try (var files = Files.list(dir.path())) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly(ClusterSecret.FILE);
    }
  }
}
