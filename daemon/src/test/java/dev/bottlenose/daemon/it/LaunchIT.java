package dev.bottlenose.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.daemon.session.ProbeInfo;
import dev.bottlenose.daemon.session.SessionException;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
