package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.daemon.session.ResourceEntry;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.KnownAnswerWorkload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Virtual threads, which the thread MXBean does not list, show as one group under /Threads on JDK 25. */
class VirtualThreadsTest {

  @Test
  void virtualThreadsOfAJdk25TargetAreShownWithTheirScheduler() throws Exception {
    SessionOptions options = SessionOptions.defaults()
        .withAgentJar(Path.of(System.getProperty("bottlenose.agent.jar")));
    try (TargetJvm target = TargetJvm.start(Jdk.JDK25, KnownAnswerWorkload.class, "-XX:+EnableDynamicAgentLoading");
        TargetSession session = TargetSession.attach(target.pid(), options, System.err)) {
      target.send("virtual 20000");
      assertThat(target.awaitLine("done", Duration.ofSeconds(30))).contains("started=50");

      await("/Threads/virtual with carriers").atMost(Duration.ofSeconds(15)).until(() -> {
        Map<String, String> a = virtualGroup(session);
        return a != null && Integer.parseInt(a.getOrDefault("carriers", "0")) > 0;
      });
      Map<String, String> a = virtualGroup(session);
      assertThat(a).containsKeys("mounted", "queued", "parallelism", "pinned", "pinnedNanos");
      assertThat(Integer.parseInt(a.get("parallelism"))).isPositive();
    }
  }

  private static Map<String, String> virtualGroup(TargetSession session) {
    List<ResourceEntry> entries = session.resources("/Threads", 1);
    return entries.stream().filter(e -> e.path().toString().equals("/Threads/virtual"))
        .map(ResourceEntry::attributes).findFirst().orElse(null);
  }
}
