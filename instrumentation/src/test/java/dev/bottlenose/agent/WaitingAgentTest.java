package dev.bottlenose.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.agent.wire.Handover;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The waiting agent on a real Unix-domain socket in this JVM, with a loader that only parses the options as
 * {@code agentmain} would (the daemon module's {@code WaitingAgentIT} hands them to a real target).
 */
class WaitingAgentTest {
  @TempDir
  Path temp;
  private Path agents;
  private final List<String> taken = new CopyOnWriteArrayList<>();
  private WaitingAgent agent;
  private Thread thread;

  @BeforeEach
  void privateDirectory() throws IOException {
    agents = RunDirectory.agents(temp.resolve("home"), RunDirectory.ownUid());
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (agent != null) {
      agent.close();
      thread.join(5000);
    }
  }

  private void startWaiting() throws IOException {
    agent = WaitingAgent.listen(agents, 4242, options -> {
      AgentOptions.parse(options);
      taken.add(options);
    });
    thread = agent.thread();
    thread.start();
  }

  private String handOver(String line) throws IOException {
    try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(agent.socket()))) {
      Handover.writeLine(channel, line, 5000);
      return Handover.readLine(channel, 5000);
    }
  }

  @Test
  void refusesAPeerOfAnotherUserAndAPeerOfUnknownUser() throws IOException {
    UserPrincipal own = Files.getOwner(agents);
    UserPrincipal other = FileSystems.getDefault().getUserPrincipalLookupService()
        .lookupPrincipalByName(RunDirectory.ownUid() == 0 ? "65534" : "0");
    assertThat(WaitingAgent.refusal(own, own)).isNull();
    assertThat(WaitingAgent.refusal(Files.getOwner(temp), own)).as("another principal of the same uid").isNull();
    assertThat(WaitingAgent.refusal(other, own)).startsWith("the peer runs as " + other.getName() + ", this JVM as ");
    assertThat(WaitingAgent.refusal(null, own)).isEqualTo("the peer's user is unknown (no SO_PEERCRED)");
  }

  @Test
  void listensOnAPrivateSocketAndRemovesItWhenClosed() throws Exception {
    startWaiting();
    Path socket = agents.resolve("4242.sock");
    assertThat(agent.socket()).isEqualTo(socket);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket, LinkOption.NOFOLLOW_LINKS)))
        .isEqualTo("rw-------");
    for (Path dir : List.of(agents, agents.getParent(), agents.getParent().getParent())) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).as(dir.toString())
          .isEqualTo("rwx------");
    }
    assertThat(thread.getName()).isEqualTo("bottlenose-wait");
    assertThat(thread.isDaemon()).isTrue();
    agent.close();
    thread.join(5000);
    assertThat(thread.isAlive()).isFalse();
    assertThat(Files.exists(socket, LinkOption.NOFOLLOW_LINKS)).isFalse();
  }

  @Test
  void aMalformedLineIsAnsweredWithTheErrorAndTheAgentKeepsWaiting() throws Exception {
    startWaiting();
    assertThat(handOver("port=http,token=abc")).isEqualTo("error: agent option port=http is not a number");
    assertThat(handOver("color=blue")).startsWith("error: unknown agent option 'color'");
    // a peer that only looks whether the agent waits, and closes without a word
    SocketChannel.open(UnixDomainSocketAddress.of(agent.socket())).close();
    assertThat(taken).isEmpty();
    assertThat(handOver("port=41234,token=3f9c,heartbeat=10000,requester=daemon-1")).isEqualTo("ok");
    assertThat(handOver("port=41235,token=77aa,heartbeat=10000,requester=daemon-2")).as("a second daemon")
        .isEqualTo("ok");
    assertThat(taken).containsExactly("port=41234,token=3f9c,heartbeat=10000,requester=daemon-1",
        "port=41235,token=77aa,heartbeat=10000,requester=daemon-2");
    assertThat(thread.isAlive()).isTrue();
  }

  @Test
  void aPeerThatSaysNothingIsDroppedAfterTheTimeoutAndTheNextIsServed() throws Exception {
    startWaiting();
    try (SocketChannel silent = SocketChannel.open(UnixDomainSocketAddress.of(agent.socket()))) {
      long start = System.nanoTime();
      assertThat(Handover.readLine(silent, 10_000)).as("closed by the agent, unanswered").isNull();
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
          .isBetween(WaitingAgent.LINE_TIMEOUT_MILLIS - 500, WaitingAgent.LINE_TIMEOUT_MILLIS + 3000);
    }
    assertThat(handOver("port=1,token=a")).isEqualTo("ok");
  }

  @Test
  void aLineLongerThanTheLimitIsNotTaken() throws Exception {
    startWaiting();
    try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(agent.socket()))) {
      channel.write(java.nio.ByteBuffer.wrap(("port=1,token=" + "a".repeat(Handover.MAX_BYTES) + "\n").getBytes()));
      String answer;
      try {
        answer = Handover.readLine(channel, 5000);
      } catch (IOException reset) {
        answer = null; // the agent closed with bytes unread, which Linux tells the peer as a reset
      }
      assertThat(answer).isNull();
    }
    assertThat(taken).isEmpty();
    assertThat(handOver("port=1,token=a")).isEqualTo("ok");
  }

  @Test
  void replacesAStaleSocketButNotOneSomebodyListensOn() throws Exception {
    Path socket = agents.resolve("4242.sock");
    try (ServerSocketChannel killed = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      killed.bind(UnixDomainSocketAddress.of(socket));
    }
    assertThat(Files.exists(socket, LinkOption.NOFOLLOW_LINKS)).as("closing leaves the file").isTrue();
    startWaiting();
    assertThat(handOver("port=1,token=a")).isEqualTo("ok");
    assertThatThrownBy(() -> WaitingAgent.listen(agents, 4242, options -> { }))
        .hasMessage(socket + " is in use: another process listens on it");
    assertThat(handOver("port=2,token=b")).as("the first one still waits").isEqualTo("ok");
  }

  @Test
  void standaloneMeansNoOptionsOrTheWordStandalone() {
    assertThat(AgentOptions.isStandalone(null)).isTrue();
    assertThat(AgentOptions.isStandalone("")).isTrue();
    assertThat(AgentOptions.isStandalone(" standalone ")).isTrue();
    assertThat(AgentOptions.isStandalone("port=1,token=a")).isFalse();
    assertThat(AgentOptions.isStandalone("standalone,port=1")).isFalse();
  }

  @Test
  void theRunDirectoryMustBePrivateAndReal() throws IOException {
    int me = RunDirectory.ownUid();
    Path open = Files.createDirectory(temp.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertThatThrownBy(() -> RunDirectory.agents(open, me)).hasMessage(open + " is open to other users (rwxr-xr-x);"
        + " make it private: chmod 700 " + open);
    Path link = Files.createSymbolicLink(temp.resolve("link"), temp.resolve("home"));
    assertThatThrownBy(() -> RunDirectory.agents(link, me)).hasMessage(link + " is a symbolic link");
    assertThatThrownBy(() -> RunDirectory.agents(temp.resolve("home"), me + 1))
        .hasMessage(temp.resolve("home") + " belongs to uid " + me + ", not to this process's uid " + (me + 1));
    Path fresh = RunDirectory.agents(temp.resolve("a/b"), me);
    assertThat(fresh).isEqualTo(temp.resolve("a/b/run/agents"));
  }
}
