package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.daemon.session.ResourceEntry;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import dev.bottlenose.tests.harness.Jcmd;
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

  /**
   * Asking the scheduler's MXBean initializes {@code java.lang.VirtualThread}, and linking that {@code Thread}
   * subclass throws away the program's compiled code that relied on {@code Thread} having none: a program that never
   * ran a virtual thread keeps the class as it started, loaded and not initialized, for as long as a daemon is
   * attached.
   */
  @Test
  void aJdk25ProgramThatNeverRanAVirtualThreadKeepsItsVirtualThreadClassUninitialized() throws Exception {
    SessionOptions options = SessionOptions.defaults()
        .withAgentJar(Path.of(System.getProperty("bottlenose.agent.jar")));
    try (TargetJvm target = TargetJvm.start(Jdk.JDK25, KnownAnswerWorkload.class, "-XX:+EnableDynamicAgentLoading");
        TargetSession session = TargetSession.attach(target.pid(), options, System.err)) {
      assertThat(virtualThreadClass(target.pid())).as("before any discovery").contains(" loaded ");
      await("/Threads/virtual").atMost(Duration.ofSeconds(15)).until(() -> virtualGroup(session) != null);
      Thread.sleep(2500); // discovery refreshes it every second
      assertThat(virtualGroup(session)).containsKey("pinned").doesNotContainKey("mounted");
      assertThat(virtualThreadClass(target.pid())).contains(" loaded ").doesNotContain("initialized");
    }
  }

  /** {@code java.lang.VirtualThread}'s line of {@code jcmd PID VM.classes}: its address, size, state and flags. */
  private static String virtualThreadClass(long pid) throws Exception {
    return Jcmd.run(pid, "VM.classes").lines().filter(l -> l.strip().endsWith(" java.lang.VirtualThread")).findFirst()
        .orElseThrow(() -> new AssertionError("no java.lang.VirtualThread in jcmd VM.classes"));
  }

  private static Map<String, String> virtualGroup(TargetSession session) {
    List<ResourceEntry> entries = session.resources("/Threads", 1);
    return entries.stream().filter(e -> e.path().toString().equals("/Threads/virtual"))
        .map(ResourceEntry::attributes).findFirst().orElse(null);
  }
}
