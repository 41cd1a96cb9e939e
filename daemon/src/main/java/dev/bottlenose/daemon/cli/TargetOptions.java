package dev.bottlenose.daemon.cli;

import dev.bottlenose.cli.ProcessIds;
import dev.bottlenose.cli.UsageException;
import dev.bottlenose.daemon.session.SessionException;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The options of a command that opens a session with a target ({@code --pid}, {@code --heartbeat}, {@code --interval}). */
final class TargetOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  @Option(names = "--pid", paramLabel = "N", converter = ProcessIds.class, description = "the target JVM's process id")
  Long pid;

  @Option(names = "--heartbeat", paramLabel = "DURATION", description = "how often the agent hears from the daemon (default: 10s)")
  Duration heartbeat = Duration.ofSeconds(10);

  @Option(names = "--interval", paramLabel = "DURATION", description = "how often values are sampled (default: 1s)")
  Duration interval = Duration.ofSeconds(1);

  boolean hasPid() {
    return pid != null;
  }

  long pid() {
    if (pid == null) {
      throw new UsageException("'" + command.name() + "' needs --pid");
    }
    return pid;
  }

  SessionOptions sessionOptions(String requester) {
    try {
      return SessionOptions.defaults().withRequester(requester + "-" + ProcessHandle.current().pid())
          .withHeartbeatMillis(heartbeat.toMillis()).withInterval(interval);
    } catch (SessionException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** The in-process session the short-lived commands (resources, measure, ledger) use. */
  TargetSession attach(Console console, String requester) {
    return TargetSession.attach(pid(), sessionOptions(requester), console.err());
  }
}
