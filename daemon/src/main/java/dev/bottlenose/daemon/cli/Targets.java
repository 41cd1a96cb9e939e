package dev.bottlenose.daemon.cli;

import dev.bottlenose.daemon.session.SessionException;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import java.time.Duration;
import java.util.Set;

/** Opens the in-process session the short-lived commands (resources, measure, ledger) use. */
final class Targets {
  static final Set<String> SESSION_OPTIONS = Set.of("pid", "heartbeat", "interval");
  static final Set<String> MEASURE_OPTIONS = with("probe", "metric", "metrics", "focus", "for", "callee");

  private Targets() {}

  static SessionOptions options(Args a, String requester) {
    try {
      return SessionOptions.defaults().withRequester(requester + "-" + ProcessHandle.current().pid())
          .withHeartbeatMillis(a.duration("heartbeat", Duration.ofSeconds(10)).toMillis())
          .withInterval(a.duration("interval", Duration.ofSeconds(1)));
    } catch (SessionException e) {
      throw new UsageException(e.getMessage());
    }
  }

  static TargetSession attach(Args a, Console console, String requester) {
    return TargetSession.attach(a.pid(), options(a, requester), console.err());
  }

  static Set<String> with(String... more) {
    Set<String> all = new java.util.HashSet<>(SESSION_OPTIONS);
    all.addAll(Set.of(more));
    return all;
  }
}
