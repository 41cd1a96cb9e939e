package dev.bottlenose.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.daemon.session.SessionException;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The dynamic-agent-loading rules of JDK 21+ on a real JDK 25 target. */
class Jdk25IT {

  @Test
  void attachingWithoutTheFlagWorksAndWarnsFirst() throws Exception {
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    try (TargetJvm target = TargetJvm.startWith(Jars.jdk25());
        TargetSession session = TargetSession.attach(target.pid(), SessionOptions.defaults(),
            new PrintStream(warnings, true, StandardCharsets.UTF_8))) {
      assertThat(session.hello().javaVersion()).startsWith("25");
      assertThat(session.resources("/Code/itworkload", 1)).isNotEmpty();
      assertThat(session.resources("/VM", 0).get(0).attributes())
          .as("JFR's thread exclusion is a static method from JDK 22").containsEntry("jfrToolThreads", "excluded");
    }
    assertThat(warnings.toString(StandardCharsets.UTF_8)).contains("warning:", "-XX:+EnableDynamicAgentLoading");
  }

  @Test
  void dynamicLoadingDisabledIsRefusedWithTheJavaagentFlagToUse() throws Exception {
    try (TargetJvm target = TargetJvm.startWith(Jars.jdk25(), "-XX:-EnableDynamicAgentLoading")) {
      SessionException e = null;
      try {
        TargetSession.attach(target.pid(), SessionOptions.defaults(), System.err).close();
      } catch (SessionException thrown) {
        e = thrown;
      }
      assertThat(e).isNotNull();
      assertThat(e.getMessage()).contains("-XX:-EnableDynamicAgentLoading",
          "-javaagent:" + Jars.agent().toAbsolutePath() + "=port=", "bottlenose daemon -- ");
      assertThat(target.isAlive()).isTrue();
    }
  }
}
