package dev.bottlenose.tests.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.bottlenose.daemon.channel.ChannelException;
import dev.bottlenose.daemon.channel.ChannelServer;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.OtherUser;
import dev.bottlenose.tests.harness.TargetClasspath;
import dev.bottlenose.tests.workloads.SleepyWorkload;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The agent channel against another local user (uid {@value OtherUser#UID}), who can read every process's
 * command line and connect to every loopback port: it must find no token and be served nothing, and even
 * the right token does not make it the agent.
 */
class AgentChannelSecurityTest {
  private static final Pattern SERVING = Pattern.compile("serving process (\\d+) \\(" + Pattern.quote(SleepyWorkload.class.getName()));

  @BeforeEach
  void needsAnotherUser() {
    assumeTrue(OtherUser.available(), "needs root and setpriv to run the attacker as another user");
  }

  @Test
  void anotherUserWatchingLaunchesFindsNoTokenAndIsServedNothing() throws Exception {
    Process attacker = OtherUser.start(ChannelAttacker.class, "watch", "25000");
    StringBuffer seen = new StringBuffer();
    BufferedReader lines = new BufferedReader(new InputStreamReader(attacker.getInputStream(), StandardCharsets.UTF_8));
    Thread reader = new Thread(() -> {
      try {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          seen.append(line).append('\n');
        }
      } catch (IOException e) {
        seen.append("[read failed] ").append(e).append('\n');
      }
    }, "attacker-output");
    reader.setDaemon(true);
    reader.start();
    long targetPid = -1;
    try {
      await("the attacker watching").atMost(Duration.ofSeconds(30)).until(() -> seen.toString().contains("watching"));
      assertThat(seen.toString()).contains("uid=" + OtherUser.UID);
      List<String> target = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
          "-cp", TargetClasspath.of(), SleepyWorkload.class.getName());
      try (DaemonProcess daemon = DaemonProcess.launch("e2e-" + UUID.randomUUID(), target, "--interval", "500ms")) {
        await("the daemon serving the real agent").atMost(Duration.ofSeconds(60))
            .until(() -> SERVING.matcher(daemon.output()).find() || !daemon.isAlive());
        Matcher serving = SERVING.matcher(daemon.output());
        assertThat(serving.find()).as(daemon.output()).isTrue();
        long pid = Long.parseLong(serving.group(1));
        targetPid = pid;
        await("the attacker has seen the agent's command line").atMost(Duration.ofSeconds(20))
            .until(() -> seen.toString().contains("agent " + pid + " "));
        assertThat(attacker.waitFor(40, TimeUnit.SECONDS)).as(seen.toString()).isTrue();
        reader.join(5000);
        String report = seen.toString();
        assertThat(report).as(report)
            .containsPattern("agent " + targetPid + " -javaagent:\\S+=port=\\d+,tokenFile=\\S+,heartbeat=")
            .containsPattern("token-file \\S+ unreadable: java.nio.file.AccessDeniedException")
            .doesNotContain("token-on-command-line").doesNotContain(" read ").doesNotContain("SERVED")
            .containsPattern("summary agents=\\d+ tokens=0 ports=\\d+ served=0");
        // still the real agent: the daemon's session is the launched workload's
        assertThat(daemon.output()).doesNotContain("evil.Main");
        assertThat(daemon.isAlive()).isTrue();
        System.out.println("attacker report:\n" + report + "daemon output:\n" + daemon.output());
      }
    } finally {
      attacker.destroyForcibly().waitFor();
      if (targetPid > 0) {
        ProcessHandle.of(targetPid).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  @Test
  void theRightTokenFromAnotherUsersProcessIsRefusedForItsUid() throws Exception {
    try (ChannelServer server = ChannelServer.open()) {
      Process attacker = OtherUser.start(ChannelAttacker.class, "connect", Integer.toString(server.port()), server.token());
      try {
        assertThatThrownBy(() -> server.accept(Duration.ofSeconds(8), 10_000, attacker::isAlive, () -> ""))
            .isInstanceOf(ChannelException.class)
            .hasMessageContaining("refused a connection from uid " + OtherUser.UID + " (the target runs as uid 0)");
        assertThat(attacker.waitFor(20, TimeUnit.SECONDS)).isTrue();
        String report = new String(attacker.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(report).as(report).startsWith("port " + server.port() + " closed").doesNotContain("SERVED");
        assertThat(server.refusals()).containsExactly(
            "a connection from uid " + OtherUser.UID + " (the target runs as uid 0)");
      } finally {
        attacker.destroyForcibly().waitFor();
      }
    }
  }
}
