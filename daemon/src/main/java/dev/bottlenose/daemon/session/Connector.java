package dev.bottlenose.daemon.session;

import dev.bottlenose.daemon.attach.AgentJar;
import dev.bottlenose.agent.AgentOptions;
import dev.bottlenose.daemon.attach.AttachException;
import dev.bottlenose.daemon.attach.Attacher;
import dev.bottlenose.daemon.attach.CompiledBeforeAttach;
import dev.bottlenose.daemon.attach.Finding;
import dev.bottlenose.daemon.attach.LaunchedProcess;
import dev.bottlenose.daemon.attach.OneTimeTokenFile;
import dev.bottlenose.daemon.attach.Launcher;
import dev.bottlenose.daemon.channel.AgentChannel;
import dev.bottlenose.daemon.channel.ChannelException;
import dev.bottlenose.daemon.channel.ChannelServer;
import dev.bottlenose.daemon.channel.Uids;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Brings the agent into a target (attach or launch) and waits for it to connect back. */
final class Connector {
  private Connector() {}

  static TargetSession attach(long pid, SessionOptions options, PrintStream warnings) {
    // the JFR recording starts with the agent's session: the reader reads from here, so it misses none of it
    Instant began = Instant.now();
    // a waiting agent (-javaagent without options) is handed the options on its socket: no Attach API, no jar
    Optional<Path> waiting = Attacher.waitingAgent(pid);
    // What is wrong with the target is worth more to the user than a missing jar: check it first.
    Path expected = options.agentJar() != null ? options.agentJar().toAbsolutePath() : AgentJar.expected();
    List<Finding> findings;
    try {
      findings = Attacher.preflight(pid, expected, waiting.isPresent());
    } catch (AttachException e) {
      throw new SessionException(SessionException.Failure.REFUSED, e.getMessage(), e);
    }
    Path jar = waiting.isPresent() ? null : agentJar(options);
    // the agent must connect from a process of the target's user (root attaching to another user's JVM)
    try (ChannelServer server = ChannelServer.open(Uids.ofProcess(pid))) {
      for (Finding f : findings) {
        warnings.println("bottlenose: " + f);
      }
      AgentChannel channel;
      // a waiting agent was there from the start: the JIT has recorded what a class change must throw away
      CompiledBeforeAttach compiled = CompiledBeforeAttach.NONE;
      if (waiting.isPresent()) {
        Attacher.handOver(pid, waiting.get(), agentOptions(server, options));
        channel = server.accept(options.connectTimeout(), options.heartbeatMillis(),
            () -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
            () -> "its waiting agent took the options; run the target with -Dbottlenose.agent.verbose=true to see"
                + " on its stderr why it did not connect");
        checkPid(channel, pid, waiting.get());
      } else {
        compiled = Attacher.loadAgent(pid, jar, agentOptions(server, options));
        channel = server.accept(options.connectTimeout(), options.heartbeatMillis(),
            () -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
            () -> "look for lines starting with [bottlenose] on the stderr of process " + pid);
        if (compiled.methods() > 0) {
          warnings.println("bottlenose: " + recompileAdvice(pid, compiled.methods(), jar));
        }
      }
      return new TargetSession(channel, pid, null, options,
          waiting.isPresent() ? TargetSession.Route.WAITING_AGENT : TargetSession.Route.ATTACHED, compiled, began);
    } catch (AttachException e) {
      throw new SessionException(SessionException.Failure.REFUSED, e.getMessage(), e);
    } catch (ChannelException e) {
      throw new SessionException(SessionException.Failure.FAILED, (waiting.isPresent()
          ? "handed the options to the waiting agent of process " : "attached to process ") + pid + " but "
          + e.getMessage(), e);
    }
  }

  /**
   * What attaching at run time costs a JVM that has compiled code, and how to avoid it: in a JVM started without an
   * agent the first class anything changes throws all its compiled code away ({@code CompiledBeforeAttach}); a
   * busy server paid about a tenth more of its CPU for that over a 1% search (BENCHMARKS.md, "What a search costs
   * the whole run").
   */
  static String recompileAdvice(long pid, int compiledMethods, Path agentJar) {
    return String.format(java.util.Locale.ROOT, "process %d had %,d methods compiled; attaching at run time makes it"
        + " compile them again once a class is changed. To avoid that, start it with -javaagent:%s: that agent waits,"
        + " at no measurable cost, until a search connects", pid, compiledMethods, agentJar);
  }

  /** The agent behind a pid's socket must be that process's (a socket file is only named after it). */
  private static void checkPid(AgentChannel channel, long pid, Path socket) {
    if (channel.hello().pid() != pid) {
      long other = channel.hello().pid();
      channel.close();
      throw new SessionException(SessionException.Failure.FAILED, "the agent listening on " + socket
          + " runs in process " + other + ", not in process " + pid);
    }
  }

  static TargetSession launch(List<String> command, SessionOptions options, PrintStream out, PrintStream err) {
    Path jar = agentJar(options);
    // the token goes in a one-time private file: the target's command line is readable by every user
    try (ChannelServer server = ChannelServer.open(); OneTimeTokenFile tokenFile = tokenFile(server)) {
      LaunchedProcess launched = Launcher.launch(command, jar, AgentOptions.withTokenFile(server.port(), tokenFile.path(),
          options.heartbeatMillis(), options.requester()), out, err);
      try {
        AgentChannel channel = server.accept(options.connectTimeout(), options.heartbeatMillis(),
            launched.process()::isAlive, () -> stderrHint(launched));
        return new TargetSession(channel, launched.pid(), launched.process(), options);
      } catch (ChannelException e) {
        launched.process().destroy();
        throw new SessionException(SessionException.Failure.FAILED, "started " + command.get(0) + " (pid "
            + launched.pid() + ") but " + e.getMessage(), e);
      } catch (RuntimeException e) {
        launched.process().destroy();
        throw e;
      }
    } catch (AttachException e) {
      throw SessionException.badInput(e.getMessage());
    }
  }

  private static OneTimeTokenFile tokenFile(ChannelServer server) {
    try {
      return OneTimeTokenFile.write(server.token());
    } catch (AttachException e) {
      throw new SessionException(SessionException.Failure.FAILED, e.getMessage(), e);
    }
  }

  private static String stderrHint(LaunchedProcess launched) {
    String tail = launched.stderrTail();
    return tail.isBlank() ? "the target wrote nothing to stderr" : "the target's stderr ended with:"
        + System.lineSeparator() + tail;
  }

  private static AgentOptions agentOptions(ChannelServer server, SessionOptions options) {
    return new AgentOptions(server.port(), server.token(), options.heartbeatMillis(), options.requester());
  }

  private static Path agentJar(SessionOptions options) {
    if (options.agentJar() != null) {
      return options.agentJar().toAbsolutePath();
    }
    try {
      return AgentJar.locate();
    } catch (AttachException e) {
      throw new SessionException(SessionException.Failure.FAILED, e.getMessage(), e);
    }
  }
}
