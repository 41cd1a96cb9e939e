package dev.bottlenose.daemon.attach;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcInspectorTest {

  @Test
  void flagsComeFromToolOptionsThenTheCommandLineThenUnderscoreOptions() {
    List<String> argv = List.of("/jdk/bin/java", "-Xmx1g", "-cp", "a.jar", "-XX:+DisableAttachMechanism",
        "com.acme.Main", "-XX:NotAFlag");
    Map<String, String> env = Map.of("JAVA_TOOL_OPTIONS", " -XX:-EnableDynamicAgentLoading ",
        "_JAVA_OPTIONS", "-Dlast=1");
    assertThat(ProcInspector.jvmFlags(argv, env)).containsExactly("-XX:-EnableDynamicAgentLoading", "-Xmx1g", "-cp",
        "-XX:+DisableAttachMechanism", "-Dlast=1");
  }

  @Test
  void inspectsThisJvm() {
    TargetFacts self = ProcInspector.inspect(ProcessHandle.current().pid());
    assertThat(self.alive()).isTrue();
    assertThat(self.jvm()).isTrue();
    assertThat(self.javaVersion().feature()).isEqualTo(Runtime.version().feature());
    assertThat(self.owner()).isEqualTo(System.getProperty("user.name"));
  }

  @Test
  void aProcessThatIsNotAJvmIsRecognised() throws Exception {
    Process sleep = new ProcessBuilder("sleep", "30").start();
    try {
      TargetFacts facts = ProcInspector.inspect(sleep.pid());
      assertThat(facts.alive()).isTrue();
      assertThat(facts.jvm()).isFalse();
    } finally {
      sleep.destroyForcibly().waitFor();
    }
  }

  @Test
  void aMissingProcessIsNotAlive() {
    assertThat(ProcInspector.inspect(Integer.MAX_VALUE - 7).alive()).isFalse();
  }
}
