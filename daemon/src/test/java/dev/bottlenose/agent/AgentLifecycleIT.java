package dev.bottlenose.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The agent is a guest: with no daemon connected it leaves no thread of its own in the target. Discovery runs
 * from the first session to the last, and starts again with the next.
 */
class AgentLifecycleIT {
  private static final Pattern THREAD = Pattern.compile("^\"([^\"]*)\"", Pattern.MULTILINE);

  @Test
  void noAgentThreadOutlivesTheLastSessionAndTheNextAttachStartsDiscoveryAgain() throws Exception {
    try (FakeDaemon daemon = new FakeDaemon(); Target target = Target.start(Target.jdk17(), "-Dbottlenose.agent.verbose=true")) {
      attach(target, daemon.options(60_000, "first"));
      try (FakeDaemon.Channel first = daemon.accept(Duration.ofSeconds(20))) {
        assertThat(first.request("resources", "path", "/Code", "depth", 1)).containsEntry("ok", true);
        assertThat(agentThreads(target.pid())).contains("bottlenose-discovery");
        // the daemon says bye: the last session has ended, and with it discovery
        assertThat(first.request("bye")).containsEntry("ok", true);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
            assertThat(agentThreads(target.pid())).as(target.stderr()).isEmpty());
      }

      attach(target, daemon.options(3000, "silent"));
      try (FakeDaemon.Channel silent = daemon.acceptSilent(Duration.ofSeconds(20))) {
        // a fresh discovery, started by this session, has the program's classes again
        Map<String, Object> code = silent.request("resources", "path", "/Code/" + WorkloadClasses.PACKAGE, "depth", 1);
        assertThat(code).containsEntry("ok", true);
        assertThat(code.toString()).contains("AgentWorkload");
        // then the daemon falls silent: after the heartbeat the agent ends the session and discovery
        assertThat(silent.awaitClosedByAgent(Duration.ofSeconds(15))).isNotNull();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
            assertThat(agentThreads(target.pid())).as(target.stderr()).isEmpty());
      }
      assertThat(target.stderr()).contains("the daemon said bye", "no frame from the daemon for 3000 ms")
          .doesNotContain("discovery step failed").doesNotContain("agent not started");
      assertThat(target.tick(10)).contains("calls=10");
    }
  }

  private static void attach(Target target, String options) throws Exception {
    VirtualMachine vm = VirtualMachine.attach(String.valueOf(target.pid()));
    try {
      vm.loadAgent(Target.AGENT_JAR.toString(), options);
    } finally {
      vm.detach();
    }
  }

  /** The names of the target's {@code bottlenose-*} threads, from {@code jcmd <pid> Thread.print}. */
  static List<String> agentThreads(long pid) throws IOException, InterruptedException {
    Process jcmd = new ProcessBuilder(Target.jdk17().resolve("bin/jcmd").toString(), Long.toString(pid), "Thread.print")
        .redirectErrorStream(true).start();
    String dump = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(jcmd.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(dump).as(dump).contains("Full thread dump");
    List<String> names = new ArrayList<>();
    Matcher m = THREAD.matcher(dump);
    while (m.find()) {
      if (m.group(1).startsWith("bottlenose-")) {
        names.add(m.group(1));
      }
    }
    return names;
  }
}
