package dev.bottlenose.daemon.bus;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Where this member binds, whom it joins, and the shared secret. Without a secret only loopback is
 * allowed; with one, the cluster name is derived from it, so members without the same secret never join.
 *
 * @param host the interface Hazelcast and the event bus bind to
 * @param port the first Hazelcast port tried (then the next ones)
 * @param members where to look for other members ({@code host} or {@code host:port})
 * @param secret the shared secret, or null
 */
public record ClusterSettings(String host, int port, List<String> members, String secret) {
  public static final String LOOPBACK = "127.0.0.1";
  public static final int DEFAULT_PORT = 5701;
  public static final String SECRET_ENV = "BOTTLENOSE_CLUSTER_SECRET";
  static final String BASE_NAME = "bottlenose";

  public ClusterSettings {
    members = List.copyOf(members);
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("cluster port " + port + " is not in 1..65535");
    }
    if (members.isEmpty()) {
      throw new IllegalArgumentException("no cluster members to join");
    }
    if (secret != null && secret.isBlank()) {
      throw new IllegalArgumentException("the cluster secret is empty");
    }
    if (secret == null && !isLoopback(host)) {
      throw new IllegalArgumentException("binding the cluster to " + host + " (not loopback) needs a shared secret:"
          + " set " + SECRET_ENV + " to the same value on every member");
    }
  }

  /** One embedded member on loopback, secret from {@value #SECRET_ENV} if set. */
  public static ClusterSettings loopback() {
    return new ClusterSettings(LOOPBACK, DEFAULT_PORT, List.of(LOOPBACK), System.getenv(SECRET_ENV));
  }

  /** {@code bottlenose}, or {@code bottlenose-<hash of the secret>}. */
  public String clusterName() {
    if (secret == null) {
      return BASE_NAME;
    }
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
      return BASE_NAME + "-" + HexFormat.of().formatHex(hash, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }

  static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("unknown cluster host '" + host + "'", e);
    }
  }

  @Override
  public String toString() {
    return "cluster " + clusterName() + " on " + host + ":" + port + " joining " + members
        + (secret == null ? "" : " (secret set)");
  }
}
