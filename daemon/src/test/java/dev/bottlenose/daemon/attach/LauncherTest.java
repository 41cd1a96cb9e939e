package dev.bottlenose.daemon.attach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.agent.AgentOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LauncherTest {
  private static final AgentOptions OPTIONS = new AgentOptions(41234, "abc", 3000, "daemon-7");

  @Test
  void insertsTheAgentRightAfterTheJavaExecutable() throws Exception {
    List<String> command = Launcher.withAgent(List.of("/jdk/bin/java", "-Xmx64m", "-cp", "x", "Main"),
        Path.of("/opt/agent.jar"), OPTIONS);
    assertThat(command).containsExactly("/jdk/bin/java",
        "-javaagent:/opt/agent.jar=port=41234,token=abc,heartbeat=3000,requester=daemon-7", "-Xmx64m", "-cp", "x",
        "Main");
  }

  @Test
  void aLaunchedAgentIsToldWhereItsTokenIsNotTheToken() throws Exception {
    AgentOptions options = AgentOptions.withTokenFile(41234, Path.of("/root/.bottlenose/run/agent-9f.token"), 3000,
        "daemon-7");
    List<String> command = Launcher.withAgent(List.of("/jdk/bin/java", "Main"), Path.of("/opt/agent.jar"), options);
    assertThat(command).containsExactly("/jdk/bin/java",
        "-javaagent:/opt/agent.jar=port=41234,tokenFile=/root/.bottlenose/run/agent-9f.token,heartbeat=3000,"
            + "requester=daemon-7", "Main");
    assertThatThrownBy(() -> AgentOptions.withTokenFile(1, Path.of("run/agent.token"), 1, "d"))
        .hasMessageContaining("absolute path");
    assertThatThrownBy(() -> AgentOptions.withTokenFile(1, Path.of("/home/a,b/agent.token"), 1, "d"))
        .hasMessageContaining("without ','");
  }

  @Test
  void refusesACommandThatIsNotJava() {
    assertThatThrownBy(() -> Launcher.withAgent(List.of("mvn", "exec:java"), Path.of("/a.jar"), OPTIONS))
        .isInstanceOf(AttachException.class)
        .hasMessage("the command to launch must start with the java executable, not 'mvn'");
    assertThatThrownBy(() -> Launcher.withAgent(List.of(), Path.of("/a.jar"), OPTIONS))
        .hasMessageContaining("no command to launch");
  }

  @Test
  void refusesAMissingJavaExecutable() {
    assertThatThrownBy(() -> Launcher.launch(List.of("/nowhere/bin/java", "Main"), Path.of("/a.jar"), OPTIONS, null,
        null)).isInstanceOf(AttachException.class).hasMessage("java executable not found: /nowhere/bin/java");
  }

  @Test
  void optionStringRefusesSeparatorsInTheRequester() {
    assertThatThrownBy(() -> new AgentOptions(1, "t", 1, "a,b")).hasMessageContaining("may not contain");
  }
}
