package dev.bottlenose.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassArchiveTest {
  @TempDir
  Path dir;

  @AfterEach
  void clearProperty() {
    System.clearProperty(ClassArchive.DIR_PROPERTY);
  }

  @Test
  void theArchiveIsBesideTheJarAndMappedOnlyWhenItIsThere() throws Exception {
    Path jar = dir.resolve("lib/bottlenose-daemon-all.jar");
    assertThat(ClassArchive.of(jar)).isEqualTo(dir.resolve("lib/bottlenose-daemon-all.jsa"));
    assertThat(ClassArchive.jvmOptions(jar)).isEmpty();
    Files.createDirectories(jar.getParent());
    Files.writeString(dir.resolve("lib/bottlenose-daemon-all.jsa"), "x");
    assertThat(ClassArchive.jvmOptions(jar))
        .containsExactly("-XX:SharedArchiveFile=" + dir.resolve("lib/bottlenose-daemon-all.jsa"), "-Xlog:cds=off",
            "-Xlog:cds+dynamic=off");
  }

  @Test
  void aDirectoryOfArchivesTakesThePlaceOfTheJarsOwn() throws Exception {
    Path jar = dir.resolve("lib/bottlenose-daemon-all.jar");
    Path cache = dir.resolve("cache");
    System.setProperty(ClassArchive.DIR_PROPERTY, cache.toString());
    assertThat(ClassArchive.of(jar)).isEqualTo(cache.resolve("bottlenose-daemon-all.jsa"));
    assertThat(ClassArchive.jvmOptions(jar)).isEmpty();
    Files.createDirectories(cache);
    Files.writeString(cache.resolve("bottlenose-daemon-all.jsa"), "x");
    assertThat(ClassArchive.jvmOptions(jar)).first()
        .isEqualTo("-XX:SharedArchiveFile=" + cache.resolve("bottlenose-daemon-all.jsa"));
  }
}
