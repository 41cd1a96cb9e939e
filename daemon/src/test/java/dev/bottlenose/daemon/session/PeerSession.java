package dev.bottlenose.daemon.session;

import dev.bottlenose.daemon.channel.ChannelServer;
import dev.bottlenose.daemon.channel.PeerAgent;
import java.io.IOException;
import java.time.Duration;

/**
 * A session against the test peer agent, for process-level tests of the session: the "target" is a real
 * {@code sleep} process, the peer speaks the protocol on a real socket, samples every 100 ms.
 */
final class PeerSession implements AutoCloseable {
  final Process target;
  final PeerAgent peer;
  final TargetSession session;

  private PeerSession(Process target, PeerAgent peer, TargetSession session) {
    this.target = target;
    this.peer = peer;
    this.session = session;
  }

  static PeerSession open() throws IOException {
    Process target = new ProcessBuilder("sleep", "60").start();
    try (ChannelServer server = ChannelServer.open()) {
      PeerAgent peer = PeerAgent.connect(server.port(), server.token(), target.pid());
      SessionOptions options = SessionOptions.defaults().withInterval(Duration.ofMillis(100));
      TargetSession session = new TargetSession(
          server.accept(Duration.ofSeconds(5), 10_000, () -> true, () -> ""), target.pid(), null, options);
      return new PeerSession(target, peer, session);
    }
  }

  /** The {@link SessionException} {@code r} throws; fails the test when it throws none. */
  static SessionException failure(Runnable r) {
    try {
      r.run();
    } catch (SessionException e) {
      return e;
    }
    throw new AssertionError("no SessionException");
  }

  @Override
  public void close() throws InterruptedException {
    session.close();
    peer.close();
    target.destroyForcibly().waitFor();
  }
}
