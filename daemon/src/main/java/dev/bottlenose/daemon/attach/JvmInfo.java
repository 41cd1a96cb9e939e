package dev.bottlenose.daemon.attach;

/**
 * One local JVM: pid, what it runs (main class or jar, with arguments), its Java version and owner, and whether
 * it holds a waiting agent ({@link AgentSocket}), which a daemon connects to without the Attach API.
 */
public record JvmInfo(long pid, String displayName, String javaVersion, String owner, boolean waitingAgent,
    boolean contained) {

  /** The main class or jar without its arguments. */
  public String mainClass() {
    int space = displayName.indexOf(' ');
    return space < 0 ? displayName : displayName.substring(0, space);
  }
}
