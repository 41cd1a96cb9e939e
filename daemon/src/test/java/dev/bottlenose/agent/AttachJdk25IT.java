package dev.bottlenose.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.tools.attach.VirtualMachine;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The agent attached at run time, as first load, to a JDK 25 target: discovery, a probe, clean removal. */
class AttachJdk25IT {
  @Test
  @SuppressWarnings("unchecked")
  void attachesToAJdk25TargetAndProbesIt() throws Exception {
    try (FakeDaemon daemon = new FakeDaemon();
        Target target = Target.start(Target.jdk25(), "-XX:+EnableDynamicAgentLoading", "-Dbottlenose.agent.verbose=true")) {
      VirtualMachine vm = VirtualMachine.attach(String.valueOf(target.pid()));
      try {
        vm.loadAgent(Target.AGENT_JAR.toString(), daemon.options(30_000, "it-25"));
      } finally {
        vm.detach();
      }
      try (FakeDaemon.Channel channel = daemon.accept(Duration.ofSeconds(20))) {
        assertThat(channel.hello).containsEntry("loadedBy", "agentmain").containsEntry("pid", target.pid());
        assertThat((String) channel.hello.get("javaVersion")).startsWith("25");
        Map<String, Object> found = channel.request("resources", "path", AgentIT.WORKLOAD, "depth", 1L);
        assertThat(found).as("known as soon as the agent says hello").containsEntry("ok", true);
        assertThat((List<Map<String, Object>>) found.get("resources")).extracting(r -> r.get("path")).contains(AgentIT.TICK);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
          List<Map<String, Object>> vmRoot = (List<Map<String, Object>>) channel.request("resources", "path", "/VM", "depth", 0L).get("resources");
          assertThat((Map<String, Object>) vmRoot.get(0).get("attributes")).containsEntry("jfr", "running");
          List<Map<String, Object>> pool = (List<Map<String, Object>>) channel.request("resources", "path", "/Threads/bn-lock", "depth", 1L).get("resources");
          assertThat(pool).extracting(r -> r.get("path")).contains("/Threads/bn-lock/bn-lock-1", "/Threads/bn-lock/bn-lock-2");
        });
        Map<String, Object> before = channel.request("classBytes", "className", WorkloadClasses.MAIN_CLASS);
        Map<String, Object> inserted = channel.request("insert", "method", AgentIT.TICK, "kind", "call_count");
        assertThat(inserted).containsEntry("ok", true);
        assertThat(target.tick(300)).contains("calls=300");
        List<Map<String, Object>> readings = (List<Map<String, Object>>) channel.request("read").get("readings");
        assertThat(readings).singleElement().satisfies(r -> assertThat(r).containsEntry("count", 300L));
        assertThat(channel.request("bye")).containsEntry("ok", true);
        assertThat(channel.awaitClosedByAgent(Duration.ofSeconds(5))).isNotNull();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(target.stderr()).contains("the daemon said bye"));
        assertThat(target.stderr()).contains("removed 1 probe(s)");
        assertThat(target.tick(10)).contains("calls=10");
        assertThat(before).containsEntry("ok", true);
      }
    }
  }
}
