package dev.bottlenose.daemon.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.agent.wire.Frames;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Who may become the agent: the target's user only, with the token, and only once. */
class ChannelServerTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  @Test
  void comparesTokensWholeAndOnlyAsText() {
    try (ChannelServer server = ChannelServer.open()) {
      String token = server.token();
      assertThat(server.tokenMatches(token)).isTrue();
      assertThat(server.tokenMatches(new String(token.toCharArray()))).isTrue();
      assertThat(server.tokenMatches(token.substring(0, 31) + (token.charAt(31) == '0' ? '1' : '0'))).isFalse();
      assertThat(server.tokenMatches((token.charAt(0) == '0' ? '1' : '0') + token.substring(1))).isFalse();
      assertThat(server.tokenMatches(token.substring(0, 16))).isFalse();
      assertThat(server.tokenMatches(token + "0")).isFalse();
      assertThat(server.tokenMatches("")).isFalse();
      assertThat(server.tokenMatches(null)).isFalse();
      assertThat(server.tokenMatches(List.of(token))).isFalse();
    }
  }

  @Test
  void aConnectionOfThisUserWithAWrongTokenIsIgnoredAndTheAgentStillConnects() throws Exception {
    try (ChannelServer server = ChannelServer.open();
        Socket stranger = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      Frames.write(stranger.getOutputStream(), Map.of("event", "hello", "token", "0".repeat(32)));
      try (PeerAgent peer = PeerAgent.connect(server.port(), server.token(), ProcessHandle.current().pid());
          AgentChannel channel = server.accept(TIMEOUT, 10_000, () -> true, () -> "")) {
        assertThat(channel.hello().mainClass()).isEqualTo("com.acme.Sim");
        stranger.setSoTimeout(5000);
        assertThat(stranger.getInputStream().read()).isEqualTo(-1);
        assertThat(server.refusals()).isEmpty();
      }
    }
  }

  @Test
  void aConnectionFromAnotherUserIsClosedBeforeItsHelloIsRead() throws Exception {
    int self = Uids.self();
    int other = self == 0 ? 65534 : 0;
    try (ChannelServer server = ChannelServer.open(other)) {
      assertThat(server.targetUid()).isEqualTo(other);
      // the right token, from the wrong user: refused all the same
      PeerAgent peer = PeerAgent.connect(server.port(), server.token(), ProcessHandle.current().pid());
      // a connection that says nothing is closed at once too: the server never waits for its hello
      Socket silent = new Socket(InetAddress.getLoopbackAddress(), server.port());
      silent.setSoTimeout(5000);
      try {
        assertThatThrownBy(() -> server.accept(Duration.ofMillis(1500), 10_000, () -> true, () -> "see stderr"))
            .isInstanceOf(ChannelException.class)
            .hasMessage("the agent did not connect within 1500 ms (refused a connection from uid " + self
                + " (the target runs as uid " + other + ")); see stderr");
        assertThat(silent.getInputStream().read()).isEqualTo(-1);
        assertThat(server.refusals()).containsExactly(
            "a connection from uid " + self + " (the target runs as uid " + other + ")");
      } finally {
        silent.close();
        peer.close();
      }
    }
  }

  @Test
  void oneAgentConnectedNothingListensAnyMore() throws Exception {
    try (ChannelServer server = ChannelServer.open();
        PeerAgent peer = PeerAgent.connect(server.port(), server.token(), ProcessHandle.current().pid());
        AgentChannel channel = server.accept(TIMEOUT, 10_000, () -> true, () -> "")) {
      assertThat(channel.isOpen()).isTrue();
      assertThat(server.isListening()).isFalse();
      assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), server.port()).close())
          .isInstanceOf(ConnectException.class);
      assertThat(channel.call("ping", Map.of())).containsKey("nanoTime");
    }
  }

  @Test
  void theKernelNamesTheOwnerOfALiveLoopbackConnection() throws IOException {
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
        Socket accepted = listener.accept()) {
      OptionalInt uid = LoopbackPeers.ownerUid((InetSocketAddress) accepted.getRemoteSocketAddress(),
          (InetSocketAddress) accepted.getLocalSocketAddress());
      assertThat(uid).hasValue(Uids.self());
      InetSocketAddress nobody = new InetSocketAddress(InetAddress.getLoopbackAddress(), client.getLocalPort() ^ 1);
      assertThat(LoopbackPeers.ownerUid(nobody, (InetSocketAddress) accepted.getLocalSocketAddress())).isEmpty();
    }
  }

  @Test
  void readsIpv4AndIpv4MappedIpv6RowsAndSkipsSocketsNoProcessHolds() {
    InetSocketAddress peer = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0xA1A4);
    InetSocketAddress server = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0xABA9);
    String header = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode";
    String v4 = "   3: 0100007F:A1A4 0100007F:ABA9 01 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0 20 4 30 10 -1";
    String v6 = "   0: 0000000000000000FFFF00000100007F:A1A4 0000000000000000FFFF00000100007F:ABA9 01 00000000:00000000"
        + " 00:00000000 00000000 65534        0 777 1 0";
    String timeWait = "   1: 0100007F:A1A4 0100007F:ABA9 06 00000000:00000000 03:00000892 00000000     0        0 0 3 0";
    String reverse = "   2: 0100007F:ABA9 0100007F:A1A4 01 00000000:00000000 00:00000000 00000000     0        0 99 1 0";
    assertThat(LoopbackPeers.ownerUid(List.of(header, v4, timeWait, reverse), peer, server)).hasValue(1000);
    assertThat(LoopbackPeers.ownerUid(List.of(header, v6, timeWait), peer, server)).hasValue(65534);
    assertThat(LoopbackPeers.ownerUid(List.of(header, timeWait, reverse), peer, server)).isEmpty();
    // two live sockets that claim the same connection with different owners: trust neither
    assertThat(LoopbackPeers.ownerUid(List.of(v4, v6), peer, server)).isEmpty();
  }
}
