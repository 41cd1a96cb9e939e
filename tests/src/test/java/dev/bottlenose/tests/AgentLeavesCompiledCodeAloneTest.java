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
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The agent loads and initializes no JDK class the program has not when nothing asks for it: a new subclass in the
 * JVM makes the JIT throw away every compiled method that relied on there being none. Asking the virtual threads'
 * scheduler initializes {@code java.lang.VirtualThread} (a {@code Thread} subclass: the program's compiled socket and
 * channel code went), and the waiting agent's code loads {@code java.net.UnixDomainSocketAddress} (a second
 * {@code SocketAddress}).
 */
class AgentLeavesCompiledCodeAloneTest {

  @Test
  void anAttachedAgentInitializesNoVirtualThreadAndLoadsNoUnixSocketAddressTheProgramNeverUsed() throws Exception {
    SessionOptions options = SessionOptions.defaults()
        .withAgentJar(Path.of(System.getProperty("bottlenose.agent.jar")));
    try (TargetJvm target = TargetJvm.start(Jdk.JDK25, KnownAnswerWorkload.class, "-XX:+EnableDynamicAgentLoading")) {
      assertThat(classState(target.pid(), "java.lang.VirtualThread")).as("before the attach").contains("loaded");
      assertThat(classState(target.pid(), "java.net.UnixDomainSocketAddress")).as("before the attach").isEmpty();
      try (TargetSession session = TargetSession.attach(target.pid(), options, System.err)) {
        await("/Threads/virtual").atMost(Duration.ofSeconds(15))
            .until(() -> session.resources("/Threads", 1).stream().map(ResourceEntry::path).map(String::valueOf)
                .anyMatch("/Threads/virtual"::equals));
        Thread.sleep(2500); // discovery refreshes it every second
        assertThat(classState(target.pid(), "java.lang.VirtualThread")).contains("loaded");
        assertThat(classState(target.pid(), "java.net.UnixDomainSocketAddress")).isEmpty();
      }
    }
  }

  /** The state {@code jcmd PID VM.classes} gives {@code className} ({@code loaded}, {@code fully_initialized}, …). */
  private static Optional<String> classState(long pid, String className) throws Exception {
    return Jcmd.run(pid, "VM.classes").lines().map(String::strip).filter(l -> l.endsWith(" " + className))
        .map(l -> l.split("\\s+")[2]).findFirst();
  }
}
