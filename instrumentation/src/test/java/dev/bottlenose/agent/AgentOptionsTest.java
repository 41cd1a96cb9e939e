package dev.bottlenose.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AgentOptionsTest {
  @Test
  void readsEveryOption() {
    assertThat(AgentOptions.parse("port=41234,token=3f9c,heartbeat=2500,requester=daemon-7"))
        .isEqualTo(new AgentOptions(41234, "3f9c", 2500, "daemon-7"));
  }

  @Test
  void defaultsHeartbeatAndRequester() {
    assertThat(AgentOptions.parse("port=1,token=t")).isEqualTo(new AgentOptions(1, "t", 10_000, "daemon"));
  }

  @Test
  void readsATokenFileInsteadOfAToken() {
    AgentOptions options = AgentOptions.parse("port=1,tokenFile=/root/.bottlenose/run/agent-ab.token,heartbeat=500");
    assertThat(options.tokenFile()).isEqualTo("/root/.bottlenose/run/agent-ab.token");
    assertThat(options.token()).as("no token on a command line").isNull();
    assertThatThrownBy(() -> AgentOptions.parse("port=1,token=t,tokenFile=/x/agent-a.token"))
        .hasMessage("agent options token= and tokenFile= exclude each other");
  }

  @Test
  void readsTheSamplePeriod() {
    assertThat(AgentOptions.parse("port=1,samplePeriod=10").samplePeriodMillis()).isEqualTo(10);
    assertThat(AgentOptions.parse("port=1").samplePeriodMillis()).isEqualTo(20);
  }

  @Test
  void refusesBadOptionsNamingThem() {
    assertThatThrownBy(() -> AgentOptions.parse("token=t")).hasMessageContaining("port= is missing");
    assertThatThrownBy(() -> AgentOptions.parse("port=http")).hasMessageContaining("port=http is not a number");
    assertThatThrownBy(() -> AgentOptions.parse("port=70000")).hasMessageContaining("not a TCP port");
    assertThatThrownBy(() -> AgentOptions.parse("port=1,colour=red")).hasMessageContaining("unknown agent option 'colour'");
    assertThatThrownBy(() -> AgentOptions.parse("port=1,heartbeat=0")).hasMessageContaining("heartbeat=0");
    assertThatThrownBy(() -> AgentOptions.parse("port=1,samplePeriod=0")).hasMessage(
        "agent option samplePeriod=0 must be 1 .. 1000 ms");
    assertThatThrownBy(() -> AgentOptions.parse("port")).hasMessageContaining("'port' is not name=value");
  }

  @Test
  void whatTheDaemonWritesTheAgentReadsBack() {
    AgentOptions attach = new AgentOptions(41234, "3f9c", 2500, "daemon-7");
    assertThat(AgentOptions.parse(attach.toString())).isEqualTo(attach);
    AgentOptions launch = AgentOptions.withTokenFile(1, java.nio.file.Path.of("/root/.bottlenose/run/agent-ab.token"), 500, "d");
    assertThat(AgentOptions.parse(launch.toString())).isEqualTo(launch);
    AgentOptions sampled = new AgentOptions(9, "t", null, 1000, "d", 50);
    assertThat(AgentOptions.parse(sampled.toString())).isEqualTo(sampled);
    assertThatThrownBy(() -> new AgentOptions(1, "a,b", 1, "d")).hasMessageContaining("may not contain");
  }
}
