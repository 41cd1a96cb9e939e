package dev.bottlenose.daemon.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.daemon.channel.ChannelServer;
import dev.bottlenose.daemon.channel.PeerAgent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JFR repository the agent names that the daemon will not read fails the session's start, saying why. */
class RepositoryCheckTest {
  @TempDir
  Path temp;

  @Test
  void aSymbolicLinkForARepositoryFailsTheStartAndSaysBye() throws Exception {
    Path link = Files.createSymbolicLink(temp.resolve("repo"), Path.of("/root"));
    Process target = new ProcessBuilder("sleep", "60").start();
    try (ChannelServer server = ChannelServer.open();
        PeerAgent peer = PeerAgent.connect(server.port(), server.token(), target.pid(), link.toString())) {
      SessionException e = PeerSession.failure(() -> TargetSession.over(
          server.accept(Duration.ofSeconds(5), 10_000, () -> true, () -> ""), target.pid(), SessionOptions.defaults()));
      assertThat(e.failure()).isEqualTo(SessionException.Failure.FAILED);
      assertThat(e.getMessage()).isEqualTo("the agent in process " + target.pid()
          + " named a JFR repository the daemon will not read: " + link + " is a symbolic link");
      await().atMost(Duration.ofSeconds(5)).until(() -> peer.ops().contains("bye"));
    } finally {
      target.destroyForcibly().waitFor();
    }
  }

  @Test
  void aRelativeRepositoryFailsTheStart() throws Exception {
    Process target = new ProcessBuilder("sleep", "60").start();
    try (ChannelServer server = ChannelServer.open();
        PeerAgent peer = PeerAgent.connect(server.port(), server.token(), target.pid(), "tmp/../etc")) {
      SessionException e = PeerSession.failure(() -> TargetSession.over(
          server.accept(Duration.ofSeconds(5), 10_000, () -> true, () -> ""), target.pid(), SessionOptions.defaults()));
      assertThat(e.getMessage()).endsWith("named a JFR repository the daemon will not read: 'tmp/../etc' is not an"
          + " absolute, normal path");
    } finally {
      target.destroyForcibly().waitFor();
    }
  }
}
