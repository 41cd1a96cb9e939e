package dev.bottlenose.bus;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Where this member binds, whom it joins, and the secret that admits it ({@link ClusterSecret}): members
 * whose secrets differ have different cluster names and refuse each other's event-bus connections.
 *
 * @param host the interface Hazelcast and the event bus bind to
 * @param port the first Hazelcast port tried (then the next ones)
 * @param members where to look for other members ({@code host} or {@code host:port})
 * @param secret the cluster's secret
 */
public record ClusterSettings(String host, int port, List<String> members, ClusterSecret secret) {
  public static final String LOOPBACK = "127.0.0.1";
  public static final int DEFAULT_PORT = 5701;

  public ClusterSettings {
    members = List.copyOf(members);
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("cluster port " + port + " is not in 1..65535");
    }
    if (members.isEmpty()) {
      throw new IllegalArgumentException("no cluster members to join");
    }
    if (secret == null) {
      throw new IllegalArgumentException("a cluster needs a secret");
    }
    checkHost(host);
  }

  /** One member on loopback, with the user's secret ({@link ClusterSecret#load()}). */
  public static ClusterSettings loopback() {
    return loopback(ClusterSecret.load());
  }

  /** One member on loopback with {@code secret}. */
  public static ClusterSettings loopback(ClusterSecret secret) {
    return new ClusterSettings(LOOPBACK, DEFAULT_PORT, List.of(LOOPBACK), secret);
  }

  /** {@code bottlenose-<hash>}: the secret's, so only members with the same secret join. */
  public String clusterName() {
    return secret.clusterName();
  }

  public boolean isLoopback() {
    return checkHost(host);
  }

  /** Whether {@code host} is loopback; refuses a name that does not resolve or an address of another machine. */
  private static boolean checkHost(String host) {
    InetAddress address;
    try {
      address = InetAddress.getByName(host);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("unknown cluster host '" + host + "'", e);
    }
    if (address.isLoopbackAddress()) {
      return true;
    }
    try {
      if (NetworkInterface.getByInetAddress(address) == null) {
        throw new IllegalArgumentException("cluster host " + host + " is not an address of this machine (members bind"
            + " to one of their own interfaces)");
      }
    } catch (SocketException e) {
      throw new IllegalArgumentException("cannot list this machine's interfaces: " + e.getMessage(), e);
    }
    return false;
  }

  @Override
  public String toString() {
    return "cluster " + clusterName() + " on " + host + ":" + port + " joining " + members + " (" + secret + ")";
  }
}
