package dev.bottlenose.daemon.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.agent.wire.Frames;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ChannelTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private final ChannelServer server = ChannelServer.open();
  private PeerAgent peer;
  private AgentChannel channel;

  @AfterEach
  void tearDown() {
    if (channel != null) {
      channel.close();
    }
    if (peer != null) {
      peer.close();
    }
    server.close();
  }

  private AgentChannel open(long heartbeatMillis) throws IOException {
    peer = PeerAgent.connect(server.port(), server.token(), 4321);
    channel = server.accept(TIMEOUT, heartbeatMillis, () -> true, () -> "");
    return channel;
  }

  @Test
  void listensOnLoopbackWithARandomToken() {
    assertThat(server.port()).isPositive();
    assertThat(server.token()).hasSize(32).isNotEqualTo(ChannelServer.open().token());
  }

  @Test
  void readsTheHelloAndAnswersRequests() throws IOException {
    open(10_000);
    assertThat(channel.hello().pid()).isEqualTo(4321);
    assertThat(channel.hello().mainClass()).isEqualTo("com.acme.Sim");
    assertThat(channel.call("ping", Map.of())).containsKey("nanoTime");
  }

  @Test
  void closesConnectionsWithAWrongTokenAndKeepsWaiting() throws IOException {
    Socket stranger = new Socket(InetAddress.getLoopbackAddress(), server.port());
    Frames.write(stranger.getOutputStream(), Map.of("event", "hello", "token", "wrong"));
    open(10_000);
    assertThat(channel.isOpen()).isTrue();
    assertThat(stranger.getInputStream().read()).isEqualTo(-1);
    stranger.close();
  }

  @Test
  void anAgentThatNeverConnectsFailsWithTheHint() {
    assertThatThrownBy(() -> server.accept(Duration.ofMillis(300), 10_000, () -> true, () -> "see stderr"))
        .isInstanceOf(ChannelException.class).hasMessage("the agent did not connect within 300 ms; see stderr");
  }

  @Test
  void aTargetThatDiesBeforeConnectingFailsAtOnce() {
    long start = System.nanoTime();
    assertThatThrownBy(() -> server.accept(Duration.ofSeconds(30), 10_000, () -> false, () -> "it crashed"))
        .hasMessage("the target exited before its agent connected; it crashed");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void agentErrorsCarryTheirCode() throws IOException {
    open(10_000);
    assertThatThrownBy(() -> channel.call("frobnicate", Map.of())).isInstanceOf(AgentException.class)
        .hasMessage("unknown op frobnicate").satisfies(e -> assertThat(((AgentException) e).code()).isEqualTo("UNKNOWN_OP"));
    assertThatThrownBy(() -> channel.call("insert", Map.of("method", "/Code/x/Y/z", "kind", "call_count")))
        .isInstanceOf(AgentException.class).hasMessage("no method /Code/x/Y/z in the target");
  }

  @Test
  void pipelinedRequestsEachGetTheirOwnAnswer() throws Exception {
    open(10_000);
    List<CompletableFuture<Map<String, Object>>> answers = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      answers.add(channel.request(i % 2 == 0 ? "ping" : "status", Map.of()));
    }
    for (int i = 0; i < 40; i++) {
      assertThat(answers.get(i).get()).containsKey(i % 2 == 0 ? "nanoTime" : "suppressedErrors");
    }
  }

  @Test
  void pingsEveryThirdOfTheHeartbeat() throws IOException {
    open(300);
    await().atMost(Duration.ofSeconds(3)).until(() -> peer.ops().stream().filter("ping"::equals).count() >= 5);
  }

  @Test
  void deliversEventsToListeners() throws IOException {
    open(10_000);
    List<Map<String, Object>> events = new CopyOnWriteArrayList<>();
    channel.onEvent(events::add);
    peer.sendEvent(Map.of("event", "changes", "changes", List.of()));
    await().atMost(TIMEOUT).until(() -> events.size() == 1);
    assertThat(events.get(0)).containsEntry("event", "changes");
  }

  @Test
  void endOfStreamClosesTheChannelAndFailsLaterRequests() throws Exception {
    open(10_000);
    peer.close();
    assertThat(channel.closed().get()).isEqualTo("the agent closed the channel");
    assertThat(channel.isOpen()).isFalse();
    assertThatThrownBy(() -> channel.call("ping", Map.of())).isInstanceOf(ChannelException.class)
        .hasMessageContaining("the channel to the agent is closed");
  }

  @Test
  void closeSaysBye() throws IOException {
    open(10_000);
    channel.close();
    assertThat(peer.ops()).contains("bye");
    assertThat(channel.closed().getNow("")).isEqualTo("closed by the daemon");
  }
}
