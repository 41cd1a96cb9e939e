package dev.bottlenose.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.agent.wire.Handover;
import dev.bottlenose.daemon.attach.AgentSocket;
import dev.bottlenose.daemon.attach.JvmInfo;
import dev.bottlenose.daemon.attach.LocalJvms;
import dev.bottlenose.daemon.session.ProbeInfo;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A target started with {@code -javaagent:<agent jar>} and no options, and with the attach mechanism off: its
 * agent waits on a private socket with one thread and no JFR, a daemon session reaches it there, and the socket
 * goes with the JVM.
 */
class WaitingAgentIT {
  private static final SessionOptions OPTIONS = SessionOptions.defaults().withInterval(Duration.ofMillis(200))
      .withConnectTimeout(Duration.ofSeconds(30));
  private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

  @Test
  void aTargetWithTheAgentAloneWaitsAndServesDaemonsWithoutTheAttachApi() throws Exception {
    List<String> command = TargetJvm.command(JAVA_HOME, "-javaagent:" + Jars.agent(), "-XX:+DisableAttachMechanism");
    Process process = new ProcessBuilder(command).start();
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    Thread pump = copy(process.getErrorStream(), stderr);
    long pid = process.pid();
    Path socket = agentsDirectory().resolve(pid + ".sock");
    try {
      String ready = new String(process.getInputStream().readNBytes("ready\n".length()), StandardCharsets.UTF_8);
      assertThat(ready).as("the workload started; stderr: " + stderr).isEqualTo("ready\n");
      copy(process.getInputStream(), new ByteArrayOutputStream());

      // waiting: the socket comes at once (premain returns first), private; one thread of the agent's, no JFR
      await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(socket, LinkOption.NOFOLLOW_LINKS));
      assertThat(Files.readAttributes(socket, java.nio.file.attribute.PosixFileAttributes.class,
          LinkOption.NOFOLLOW_LINKS).isOther()).as("a socket").isTrue();
      // the socket file is made by bind() with the process's umask and narrowed at once after it; its directory is
      // private from before (nobody else can reach the socket meanwhile), so the test waits for the narrowing
      await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(mode(socket)).isEqualTo("rw-------"));
      assertThat(mode(socket.getParent())).isEqualTo("rwx------");
      assertThat(mode(socket.getParent().getParent())).isEqualTo("rwx------");
      assertThat(threads(pid)).filteredOn(t -> t.startsWith("bottlenose-")).containsExactly("bottlenose-wait");
      assertThat(threads(pid)).as("no JFR recording has run").noneMatch(t -> t.startsWith("JFR"));

      // jvms finds it although the attach mechanism does not list it
      assertThat(LocalJvms.list()).filteredOn(j -> j.pid() == pid).singleElement()
          .satisfies(j -> assertThat(j.waitingAgent()).isTrue()).extracting(JvmInfo::mainClass)
          .isEqualTo(TargetJvm.MAIN);

      // a malformed option line is answered with the error, and the agent goes on waiting
      assertThat(handOver(socket, "port=http,token=abc")).isEqualTo("error: agent option port=http is not a number");
      assertThat(AgentSocket.answering(pid)).contains(socket);
      assertThat(threads(pid)).filteredOn(t -> t.startsWith("bottlenose-")).containsExactly("bottlenose-wait");

      // a daemon session, through the socket: the preflight does not refuse the target for its disabled attach
      ByteArrayOutputStream warnings = new ByteArrayOutputStream();
      TargetSession first = TargetSession.attach(pid, OPTIONS.withRequester("first"),
          new PrintStream(warnings, true, StandardCharsets.UTF_8));
      try {
        assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(first.route()).isEqualTo(TargetSession.Route.WAITING_AGENT);
        assertThat(first.hello().loadedBy()).isEqualTo("waiting");
        assertThat(first.hello().pid()).isEqualTo(pid);
        assertThat(first.resources("/Code/itworkload", 1)).anySatisfy(r -> assertThat(r.path().toString())
            .isEqualTo("/Code/itworkload/ItWorkload"));
        Map<String, Object> original = first.classBytes(TargetJvm.MAIN);
        ProbeInfo probe = first.enable(TargetJvm.STEP, "call_count", null, "it");
        await().atMost(Duration.ofSeconds(10)).until(() -> first.values().latest() != null
            && first.values().latest().probe(probe.probeId()) != null
            && first.values().latest().probe(probe.probeId()).countDelta() > 0);

        // a second daemon is a second session, as a second attach would be
        TargetSession second = TargetSession.attach(pid, OPTIONS.withRequester("second"), System.err);
        try {
          assertThat(second.route()).isEqualTo(TargetSession.Route.WAITING_AGENT);
          assertThat(second.ledger().toString()).contains(TargetJvm.STEP.substring(0, TargetJvm.STEP.indexOf('(')));
        } finally {
          second.close();
        }
        assertThat(first.disable(probe.probeId()).classRestored()).isTrue();
        assertThat(first.classBytes(TargetJvm.MAIN)).as("restored byte for byte").isEqualTo(original);
      } finally {
        first.close();
      }

      // with the last daemon gone only the waiting thread is left, and it still answers
      await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(threads(pid))
          .filteredOn(t -> t.startsWith("bottlenose-")).containsExactly("bottlenose-wait"));
      assertThat(AgentSocket.answering(pid)).contains(socket);

      process.getOutputStream().close();
      assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
      pump.join(5000);
      assertThat(stderr.toString(StandardCharsets.UTF_8)).as("the target's stderr").isEmpty();
      assertThat(Files.exists(socket, LinkOption.NOFOLLOW_LINKS)).as(socket + " after the JVM exited").isFalse();
    } finally {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /**
   * JDK 25 with the agent in {@code JAVA_TOOL_OPTIONS}: a daemon loads nothing at run time, so the target prints
   * no warning about a dynamically loaded agent (JEP 451), only the JVM's own note that it picked the variable up.
   */
  @Test
  void onJdk25TheAgentInJavaToolOptionsServesADaemonWithoutTheDynamicLoadingWarning() throws Exception {
    ProcessBuilder builder = new ProcessBuilder(TargetJvm.command(Jars.jdk25()));
    builder.environment().put("JAVA_TOOL_OPTIONS", "-javaagent:" + Jars.agent());
    Process process = builder.start();
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    Thread pump = copy(process.getErrorStream(), stderr);
    long pid = process.pid();
    try {
      String ready = new String(process.getInputStream().readNBytes("ready\n".length()), StandardCharsets.UTF_8);
      assertThat(ready).as("the workload started; stderr: " + stderr).isEqualTo("ready\n");
      copy(process.getInputStream(), new ByteArrayOutputStream());
      await().atMost(Duration.ofSeconds(10)).until(() -> AgentSocket.answering(pid).isPresent());
      TargetSession session = TargetSession.attach(pid, OPTIONS, System.err);
      try {
        assertThat(session.route()).isEqualTo(TargetSession.Route.WAITING_AGENT);
        assertThat(session.hello().javaVersion()).startsWith("25");
        ProbeInfo probe = session.enable(TargetJvm.STEP, "call_count", null, "it");
        assertThat(session.disable(probe.probeId()).classRestored()).isTrue();
      } finally {
        session.close();
      }
      process.getOutputStream().close();
      assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
      pump.join(5000);
      assertThat(stderr.toString(StandardCharsets.UTF_8).strip()).as("the target's stderr")
          .isEqualTo("Picked up JAVA_TOOL_OPTIONS: -javaagent:" + Jars.agent());
    } finally {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** Where the agent and the daemon put waiting agents' sockets: {@code $BOTTLENOSE_HOME/run/agents}. */
  private static Path agentsDirectory() {
    String env = System.getenv("BOTTLENOSE_HOME");
    Path home = env != null && !env.isBlank() ? Path.of(env) : Path.of(System.getProperty("user.home"), ".bottlenose");
    return home.resolve("run").resolve("agents");
  }

  private static String handOver(Path socket, String line) throws IOException {
    try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
      Handover.writeLine(channel, line, 5000);
      return Handover.readLine(channel, 5000);
    }
  }

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
  }

  /**
   * The names of the process's threads as the kernel has them ({@code /proc/<pid>/task/<tid>/comm}: HotSpot
   * names each native thread after its Java thread, cut to 15 bytes); no attach needed, as none is allowed.
   */
  private static List<String> threads(long pid) throws IOException {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks) {
        try {
          names.add(Files.readString(task.resolve("comm")).strip());
        } catch (IOException ended) {
          // the thread ended while listed
        }
      }
    }
    return names;
  }

  private static Thread copy(InputStream in, ByteArrayOutputStream to) {
    Thread t = new Thread(() -> {
      try {
        in.transferTo(to);
      } catch (IOException e) {
        // the process ended
      }
    }, "target-output");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
