package dev.bottlenose.daemon.session;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How a session connects and samples.
 *
 * @param agentJar the agent jar, or null to locate it next to the daemon jar
 * @param heartbeatMillis after this long without a frame the agent drops the session and its probes
 * @param requester who the agent's ledger names for this session's probes
 * @param connectTimeout how long to wait for the agent to connect back
 * @param interval how often values are read
 * @param historySize how many samples are kept
 */
public record SessionOptions(Path agentJar, long heartbeatMillis, String requester, Duration connectTimeout,
    Duration interval, int historySize) {
  static final long MIN_HEARTBEAT_MILLIS = 300;

  /** Checks everything before anything is attached, so bad options change nothing. */
  public SessionOptions {
    Sampler.checked(interval);
    if (heartbeatMillis < MIN_HEARTBEAT_MILLIS || heartbeatMillis > Duration.ofHours(1).toMillis()) {
      throw SessionException.badInput("heartbeat " + heartbeatMillis + " ms is outside 300 ms .. 1 h");
    }
    if (historySize < 1) {
      throw SessionException.badInput("history size " + historySize + " must be at least 1");
    }
    if (requester == null || requester.isBlank() || requester.contains(",") || requester.contains("=")) {
      throw SessionException.badInput("requester '" + requester + "' must be a word without ',' or '='");
    }
  }

  public static SessionOptions defaults() {
    return new SessionOptions(null, 10_000, "daemon-" + ProcessHandle.current().pid(), Duration.ofSeconds(15),
        Duration.ofSeconds(1), 600);
  }

  public SessionOptions withAgentJar(Path jar) {
    return new SessionOptions(jar, heartbeatMillis, requester, connectTimeout, interval, historySize);
  }

  public SessionOptions withHeartbeatMillis(long millis) {
    return new SessionOptions(agentJar, millis, requester, connectTimeout, interval, historySize);
  }

  public SessionOptions withRequester(String name) {
    return new SessionOptions(agentJar, heartbeatMillis, name, connectTimeout, interval, historySize);
  }

  public SessionOptions withConnectTimeout(Duration timeout) {
    return new SessionOptions(agentJar, heartbeatMillis, requester, timeout, interval, historySize);
  }

  public SessionOptions withInterval(Duration every) {
    return new SessionOptions(agentJar, heartbeatMillis, requester, connectTimeout, every, historySize);
  }
}
