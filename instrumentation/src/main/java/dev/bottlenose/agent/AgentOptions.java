package dev.bottlenose.agent;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The agent's option string, written by the daemon ({@link #toString()}) and read by the agent
 * ({@link #parse(String)}): {@code port=41234,token=3f9c…,heartbeat=10000,requester=daemon-1234}. Where to
 * connect, the secret to present, how long silence means the daemon is gone, and who asks; optionally
 * {@code samplePeriod=20} (ms, 1..1000), the {@code cpu_sample} period, taken from the load that starts the
 * agent. Instead of {@code token=} a command line names {@code tokenFile=<absolute path>}, a one-time private
 * file holding the token ({@link TokenFile}): a command line is readable by every user, while the Attach API,
 * which only the target's user and root can use, may carry the token itself.
 */
public record AgentOptions(int port, String token, String tokenFile, long heartbeatMillis, String requester,
    long samplePeriodMillis) {
  static final long DEFAULT_HEARTBEAT_MILLIS = 10_000;
  static final long DEFAULT_SAMPLE_PERIOD_MILLIS = 20;
  /** The one option that asks for the waiting agent, besides none at all. */
  static final String STANDALONE = "standalone";

  public AgentOptions {
    if (requester.contains(",") || requester.contains("=")) {
      throw new IllegalArgumentException("requester may not contain ',' or '=': " + requester);
    }
    if ((token == null) == (tokenFile == null)) {
      throw new IllegalArgumentException("give the agent a token or a token file, not both or neither");
    }
    if (token != null && (token.contains(",") || token.contains("="))) {
      throw new IllegalArgumentException("a token may not contain ',' or '='");
    }
    if (tokenFile != null && (!Path.of(tokenFile).isAbsolute() || tokenFile.matches(".*[,=\\s].*"))) {
      throw new IllegalArgumentException("the token file must be an absolute path without ',', '=' or blanks: "
          + tokenFile);
    }
  }

  /** Options that hand the token itself (through the Attach API). */
  public AgentOptions(int port, String token, long heartbeatMillis, String requester) {
    this(port, token, null, heartbeatMillis, requester, DEFAULT_SAMPLE_PERIOD_MILLIS);
  }

  /** Options that name the one-time file holding the token (for a command line). */
  public static AgentOptions withTokenFile(int port, Path tokenFile, long heartbeatMillis, String requester) {
    return new AgentOptions(port, null, tokenFile.toString(), heartbeatMillis, requester, DEFAULT_SAMPLE_PERIOD_MILLIS);
  }

  /** These options with the token read (and the file deleted) if a {@code tokenFile=} names it. */
  AgentOptions withTokenRead() throws java.io.IOException {
    return tokenFile == null ? this
        : new AgentOptions(port, TokenFile.take(tokenFile), null, heartbeatMillis, requester, samplePeriodMillis);
  }

  /**
   * {@code port=41234,token=3f9c…,heartbeat=10000,requester=daemon-1234}, or {@code tokenFile=/…/agent-….token}
   * in place of the token, and {@code samplePeriod=} when it is not the default: what {@link #parse} reads back.
   */
  @Override
  public String toString() {
    return "port=" + port + (tokenFile != null ? ",tokenFile=" + tokenFile : ",token=" + token) + ",heartbeat="
        + heartbeatMillis + ",requester=" + requester
        + (samplePeriodMillis == DEFAULT_SAMPLE_PERIOD_MILLIS ? "" : ",samplePeriod=" + samplePeriodMillis);
  }

  /**
   * Whether {@code options} ask for the waiting agent: none, or {@value #STANDALONE}. Here, not in
   * {@link WaitingAgent}: loading that class to ask would load {@code java.net.UnixDomainSocketAddress} into a program
   * that may never have used it, a second {@code SocketAddress} the program's compiled code may have relied on not
   * existing.
   */
  static boolean isStandalone(String options) {
    return options == null || options.isBlank() || options.trim().equals(STANDALONE);
  }

  /** Reads an option string; an error names the option and the value. */
  public static AgentOptions parse(String text) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String part : (text == null ? "" : text).split(",")) {
      if (part.isBlank()) {
        continue;
      }
      int eq = part.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("agent option '" + part + "' is not name=value in '" + text + "'");
      }
      String name = part.substring(0, eq).trim();
      if (!name.matches("port|token|tokenFile|heartbeat|requester|samplePeriod")) {
        throw new IllegalArgumentException("unknown agent option '" + name
            + "' (known: port, token, tokenFile, heartbeat, requester, samplePeriod)");
      }
      values.put(name, part.substring(eq + 1).trim());
    }
    if (!values.containsKey("port")) {
      throw new IllegalArgumentException("agent option port= is missing in '" + text + "'");
    }
    int port = number(values, "port", 0);
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("agent option port=" + port + " is not a TCP port");
    }
    long heartbeat = number(values, "heartbeat", DEFAULT_HEARTBEAT_MILLIS);
    if (heartbeat < 1) {
      throw new IllegalArgumentException("agent option heartbeat=" + heartbeat + " must be at least 1 ms");
    }
    long samplePeriod = number(values, "samplePeriod", DEFAULT_SAMPLE_PERIOD_MILLIS);
    if (samplePeriod < 1 || samplePeriod > 1000) {
      throw new IllegalArgumentException("agent option samplePeriod=" + samplePeriod + " must be 1 .. 1000 ms");
    }
    if (values.containsKey("token") && values.containsKey("tokenFile")) {
      throw new IllegalArgumentException("agent options token= and tokenFile= exclude each other");
    }
    String tokenFile = values.get("tokenFile");
    return new AgentOptions(port, tokenFile == null ? values.getOrDefault("token", "") : null, tokenFile, heartbeat,
        values.getOrDefault("requester", "daemon"), samplePeriod);
  }

  private static int number(Map<String, String> values, String name, long otherwise) {
    String v = values.get(name);
    if (v == null) {
      return (int) otherwise;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("agent option " + name + "=" + v + " is not a number");
    }
  }
}
