package dev.bottlenose.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.daemon.session.ProbeInfo;
import dev.bottlenose.daemon.session.SessionException;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Launch a target with -javaagent on its command line. */
class LaunchIT {
  private static final SessionOptions OPTIONS = SessionOptions.defaults().withInterval(Duration.ofMillis(200))
      .withConnectTimeout(Duration.ofSeconds(20));
  private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

  @Test
  void launchesWithTheAgentAndMeasures() throws Exception {
    TargetSession session = TargetSession.launch(TargetJvm.command(JAVA_HOME), OPTIONS, null, System.err);
    Process process = session.launchedProcess().orElseThrow();
    try {
      assertThat(session.hello().loadedBy()).isEqualTo("premain");
      assertThat(session.hello().pid()).isEqualTo(process.pid());
      assertNoTokenOnTheCommandLine(process.pid());
      assertThat(session.status()).as("the compiler directive, sent by attaching").containsEntry("toolCompilation", "added");
      ProbeInfo probe = session.enable(TargetJvm.STEP, "call_count", null, "it");
      await().atMost(Duration.ofSeconds(10)).until(() -> session.values().latest() != null
          && session.values().latest().probe(probe.probeId()) != null
          && session.values().latest().probe(probe.probeId()).countDelta() > 0);
      assertThat(session.disable(probe.probeId()).classRestored()).isTrue();
    } finally {
      session.close();
      process.destroyForcibly().waitFor();
    }
  }

  /**
   * Every user can read /proc/PID/cmdline: it names only the one-time token file, which the agent deleted when
   * it started (and a file in a 0700 directory besides).
   */
  private static void assertNoTokenOnTheCommandLine(long pid) throws Exception {
    String cmdline = Files.readString(Path.of("/proc/" + pid + "/cmdline")).replace('\0', ' ');
    Matcher agent = Pattern.compile("-javaagent:\\S+=port=\\d+,tokenFile=(\\S+/run/agent-[0-9a-f]{32}\\.token),heartbeat=")
        .matcher(cmdline);
    assertThat(agent.find()).as(cmdline).isTrue();
    assertThat(cmdline).doesNotContain("token=");
    Path tokenFile = Path.of(agent.group(1));
    assertThat(Files.exists(tokenFile, LinkOption.NOFOLLOW_LINKS)).as(tokenFile + " after the agent started").isFalse();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile.getParent()))).isEqualTo("rwx------");
  }

  @Test
  void aTargetThatRefusesAttachingIsNotAskedForTheDirective() throws Exception {
    TargetSession session = TargetSession.launch(TargetJvm.command(JAVA_HOME, "-XX:+DisableAttachMechanism"), OPTIONS,
        null, System.err);
    try {
      assertThat((String) session.status().get("toolCompilation")).startsWith("not added:")
          .contains("DisableAttachMechanism");
    } finally {
      session.close();
      session.launchedProcess().orElseThrow().destroyForcibly().waitFor();
    }
  }

  @Test
  void aTargetThatDiesAtStartIsReportedWithItsStderr() {
    List<String> command = new ArrayList<>(List.of(JAVA_HOME.resolve("bin/java").toString(), "-XX:+NoSuchFlag",
        "-cp", "/nowhere", "no.such.Main"));
    SessionException e = null;
    try {
      TargetSession.launch(command, OPTIONS, null, null).close();
    } catch (SessionException thrown) {
      e = thrown;
    }
    assertThat(e).isNotNull();
    assertThat(e.getMessage()).contains("before its agent connected", "the target's stderr ended with:",
        "Unrecognized VM option 'NoSuchFlag'");
  }
}
