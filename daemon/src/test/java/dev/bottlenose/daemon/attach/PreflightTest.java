package dev.bottlenose.daemon.attach;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class PreflightTest {
  private static final Path JAR = Path.of("/opt/bottlenose/bottlenose-agent.jar");

  private static TargetFacts jvm(String version, String... flags) {
    return new TargetFacts(42, true, true, "alice", "/jdk", JavaVersion.parse(version), List.of(flags),
        List.of("/jdk/bin/java", "-cp", "app.jar", "com.acme.Main"));
  }

  private static List<Finding> check(TargetFacts facts) {
    return Preflight.check(facts, "alice", JAR);
  }

  @Test
  void aHealthyJdk17TargetHasNoFindings() {
    assertThat(check(jvm("17.0.15"))).isEmpty();
  }

  @Test
  void aMissingProcessIsAnError() {
    TargetFacts gone = new TargetFacts(42, false, false, null, null, null, List.of(), List.of());
    assertThat(check(gone)).containsExactly(Finding.error("no process with pid 42"));
  }

  @Test
  void aProcessThatIsNoJvmIsAnError() {
    TargetFacts bash = new TargetFacts(42, true, false, "alice", null, null, List.of(), List.of("/bin/bash"));
    assertThat(check(bash)).singleElement().satisfies(f -> {
      assertThat(f.isError()).isTrue();
      assertThat(f.message()).isEqualTo("process 42 (/bin/bash) is not a Java virtual machine");
    });
  }

  @Test
  void anotherUsersProcessIsAnErrorUnlessRunningAsRoot() {
    TargetFacts facts = jvm("17.0.15");
    assertThat(Preflight.check(facts, "bob", JAR)).singleElement()
        .satisfies(f -> assertThat(f.message()).contains("belongs to user alice", "runs as bob", "run bottlenose as alice"));
    assertThat(Preflight.check(facts, "root", JAR)).isEmpty();
  }

  @Test
  void javaOlderThan17IsAnError() {
    assertThat(check(jvm("11.0.22"))).singleElement()
        .satisfies(f -> assertThat(f.message()).isEqualTo("process 42 runs Java 11.0.22; the Bottlenose agent needs Java 17 or later"));
    assertThat(check(jvm("1.8.0_392"))).singleElement().satisfies(f -> assertThat(f.isError()).isTrue());
  }

  @Test
  void disabledAttachMechanismIsAnErrorWithARestartHint() {
    assertThat(check(jvm("17.0.15", "-XX:+DisableAttachMechanism"))).singleElement().satisfies(f -> {
      assertThat(f.isError()).isTrue();
      assertThat(f.message()).contains("-XX:+DisableAttachMechanism",
          "-javaagent:/opt/bottlenose/bottlenose-agent.jar=port=<port>,tokenFile=<one-time token file>",
          "bottlenose daemon -- /jdk/bin/java -cp app.jar com.acme.Main");
    });
  }

  @Test
  void aTargetWithAWaitingAgentNeedsNoAttachMechanismNorDynamicLoading() {
    TargetFacts closed = jvm("21.0.5", "-XX:+DisableAttachMechanism", "-XX:-EnableDynamicAgentLoading");
    assertThat(check(closed)).hasSize(2).allMatch(Finding::isError);
    assertThat(check(jvm("21.0.5"))).singleElement().satisfies(f -> assertThat(f.isError()).isFalse());
    assertThat(Preflight.check(closed, "alice", JAR, true)).isEmpty();
    assertThat(Preflight.check(jvm("21.0.5"), "alice", JAR, true)).as("no dynamic-loading warning").isEmpty();
    assertThat(Preflight.check(closed, "bob", JAR, true)).singleElement()
        .satisfies(f -> assertThat(f.message()).contains("belongs to user alice"));
  }

  @Test
  void theRestartHintNamesTheAgentAloneToo() {
    assertThat(check(jvm("17.0.15", "-XX:+DisableAttachMechanism"))).singleElement().satisfies(f ->
        assertThat(f.message()).contains("-javaagent:/opt/bottlenose/bottlenose-agent.jar alone (in JAVA_TOOL_OPTIONS,"
            + " say): that agent waits for a daemon"));
  }

  @Test
  void theLastSettingOfAFlagWins() {
    assertThat(check(jvm("17", "-XX:+DisableAttachMechanism", "-XX:-DisableAttachMechanism"))).isEmpty();
  }

  @Test
  void jdk21WithDynamicLoadingDisabledIsAnErrorNamingTheJavaagentFlag() {
    assertThat(check(jvm("21.0.5", "-XX:-EnableDynamicAgentLoading"))).singleElement().satisfies(f -> {
      assertThat(f.isError()).isTrue();
      assertThat(f.message()).contains("-XX:-EnableDynamicAgentLoading",
          "-javaagent:/opt/bottlenose/bottlenose-agent.jar=port=<port>,tokenFile=<one-time token file>");
    });
  }

  @Test
  void jdk21WithoutDynamicLoadingFlagIsOnlyAWarning() {
    assertThat(check(jvm("25"))).singleElement().satisfies(f -> {
      assertThat(f.isError()).isFalse();
      assertThat(f.message()).contains("will print a warning", "-XX:+EnableDynamicAgentLoading");
    });
    assertThat(check(jvm("21.0.5", "-XX:+EnableDynamicAgentLoading"))).isEmpty();
  }

  @Test
  void theDynamicLoadingFlagDoesNotMatterBefore21() {
    assertThat(check(jvm("17.0.15", "-XX:-EnableDynamicAgentLoading"))).isEmpty();
  }
}
