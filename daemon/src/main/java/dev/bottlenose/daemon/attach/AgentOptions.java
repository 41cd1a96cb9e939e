package dev.bottlenose.daemon.attach;

import java.nio.file.Path;

/**
 * The agent's option string: where to connect back, the session token or the one-time file that holds it,
 * the heartbeat and who asks. A command line carries only {@code tokenFile=} (every user can read a command
 * line); the Attach API, which only the target's user and root can use, may carry the {@code token=} itself.
 */
public record AgentOptions(int port, String token, Path tokenFile, long heartbeatMillis, String requester) {

  public AgentOptions {
    if (requester.contains(",") || requester.contains("=")) {
      throw new IllegalArgumentException("requester may not contain ',' or '=': " + requester);
    }
    if ((token == null) == (tokenFile == null)) {
      throw new IllegalArgumentException("give the agent a token or a token file, not both or neither");
    }
    if (tokenFile != null && (!tokenFile.isAbsolute() || tokenFile.toString().matches(".*[,=\\s].*"))) {
      throw new IllegalArgumentException("the token file must be an absolute path without ',', '=' or blanks: "
          + tokenFile);
    }
  }

  /** Options that hand the token itself (through the Attach API). */
  public AgentOptions(int port, String token, long heartbeatMillis, String requester) {
    this(port, token, null, heartbeatMillis, requester);
  }

  /** Options that name the one-time file holding the token (for a command line). */
  public static AgentOptions withTokenFile(int port, Path tokenFile, long heartbeatMillis, String requester) {
    return new AgentOptions(port, null, tokenFile, heartbeatMillis, requester);
  }

  /** {@code port=41234,token=3f9c…,heartbeat=10000,requester=daemon-1234}, or {@code tokenFile=/…/agent-….token}. */
  @Override
  public String toString() {
    return "port=" + port + (tokenFile != null ? ",tokenFile=" + tokenFile : ",token=" + token) + ",heartbeat="
        + heartbeatMillis + ",requester=" + requester;
  }
}
