package dev.bottlenose.daemon.attach;

/** The agent's option string: where to connect back, the session token, the heartbeat and who asks. */
public record AgentOptions(int port, String token, long heartbeatMillis, String requester) {

  public AgentOptions {
    if (requester.contains(",") || requester.contains("=")) {
      throw new IllegalArgumentException("requester may not contain ',' or '=': " + requester);
    }
  }

  /** {@code port=41234,token=3f9c…,heartbeat=10000,requester=daemon-1234}. */
  @Override
  public String toString() {
    return "port=" + port + ",token=" + token + ",heartbeat=" + heartbeatMillis + ",requester=" + requester;
  }
}
