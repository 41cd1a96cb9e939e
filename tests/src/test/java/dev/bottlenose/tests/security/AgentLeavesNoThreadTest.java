package dev.bottlenose.tests.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.Jcmd;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.SleepyWorkload;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A guest leaves nothing running: once its daemon is gone (here frozen, so only the heartbeat tells, then
 * killed), the target has no thread of the agent's.
 */
class AgentLeavesNoThreadTest {
  private static final Pattern THREAD = Pattern.compile("^\"([^\"]*)\"", Pattern.MULTILINE);

  @Test
  void aFrozenThenKilledDaemonsAgentEndsEveryThreadAfterTheHeartbeat() throws Exception {
    try (TargetJvm target = TargetJvm.start(Jdk.JDK17, SleepyWorkload.class, "-Dbottlenose.agent.verbose=true");
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), "e2e-" + UUID.randomUUID(), "--heartbeat", "1500ms")) {
      await("the daemon serving").atMost(Duration.ofSeconds(60))
          .until(() -> daemon.output().contains("serving process " + target.pid()) || !daemon.isAlive());
      assertThat(daemon.output()).contains("serving process " + target.pid());
      assertThat(threads(target.pid())).contains("bottlenose-discovery");

      // frozen (SIGSTOP), the daemon sends nothing and never closes its socket: only the heartbeat ends the session
      signal("STOP", daemon.pid());
      try {
        await("the agent's threads gone after the heartbeat").atMost(Duration.ofSeconds(15))
            .untilAsserted(() -> assertThat(agentThreads(target.pid())).as(target.stderr()).isEmpty());
        assertThat(target.stderr()).contains("no frame from the daemon for 1500 ms");
      } finally {
        daemon.kill();
      }
      assertThat(target.isAlive()).isTrue();
      System.out.println("threads left in the target: " + threads(target.pid()));
    }
  }

  private static void signal(String name, long pid) throws IOException, InterruptedException {
    assertThat(new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start().waitFor()).isZero();
  }

  private static List<String> agentThreads(long pid) throws IOException, InterruptedException {
    return threads(pid).stream().filter(n -> n.startsWith("bottlenose-")).toList();
  }

  /** Every thread's name, from {@code jcmd <pid> Thread.print}. */
  private static List<String> threads(long pid) throws IOException, InterruptedException {
    String dump = Jcmd.run(pid, "Thread.print");
    assertThat(dump).as(dump).contains("Full thread dump");
    List<String> names = new ArrayList<>();
    Matcher m = THREAD.matcher(dump);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }
}
