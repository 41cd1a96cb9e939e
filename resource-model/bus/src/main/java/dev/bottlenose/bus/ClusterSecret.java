package dev.bottlenose.bus;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret every member of one Bottlenose cluster holds: the service, the CLI commands and the daemons.
 * Everything that admits a member is derived from it: the Hazelcast cluster name ({@link #clusterName()}),
 * and the key and certificate of the event bus's mutual TLS ({@link EventBusIdentity}).
 *
 * <p>It is {@value #ENV} when that is set (the same value on every host of a multi-host cluster), else the
 * file {@value #FILE} in the user's {@link PrivateDirectory}, created with 32 random bytes on first use.
 * So with no configuration each local user has a cluster of their own that no other user can join.
 */
public final class ClusterSecret {
  public static final String ENV = "BOTTLENOSE_CLUSTER_SECRET";
  public static final String FILE = "cluster.secret";
  private static final int RANDOM_BYTES = 32;

  private final byte[] secret;
  private final String origin;

  private ClusterSecret(byte[] secret, String origin) {
    this.secret = secret;
    this.origin = origin;
  }

  /** {@value #ENV} if set, else the user's {@value #FILE} (created on first use). */
  public static ClusterSecret load() {
    String fromEnvironment = System.getenv(ENV);
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return of(fromEnvironment, ENV);
    }
    return inDirectory(PrivateDirectory.ofUser());
  }

  /** The secret in {@code directory}'s {@value #FILE}, created there with 32 random bytes if missing. */
  public static ClusterSecret inDirectory(PrivateDirectory directory) {
    byte[] random = new byte[RANDOM_BYTES];
    new SecureRandom().nextBytes(random);
    byte[] fresh = (Base64.getUrlEncoder().withoutPadding().encodeToString(random) + "\n").getBytes(StandardCharsets.US_ASCII);
    String text = new String(directory.createIfAbsent(FILE, fresh), StandardCharsets.UTF_8).strip();
    if (text.isEmpty()) {
      throw new IllegalStateException(directory.path().resolve(FILE) + " is empty: delete it to have a new secret made");
    }
    return of(text, directory.path().resolve(FILE).toString());
  }

  /** A secret given as text; {@code origin} says where it came from (for messages, never the secret itself). */
  public static ClusterSecret of(String text, String origin) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("the cluster secret from " + origin + " is empty");
    }
    return new ClusterSecret(text.strip().getBytes(StandardCharsets.UTF_8), origin);
  }

  /** Where the secret came from: {@value #ENV} or the file's path. */
  public String origin() {
    return origin;
  }

  /** {@code bottlenose-<24 hex digits>}: members whose secrets differ have different names and never join. */
  public String clusterName() {
    return "bottlenose-" + HexFormat.of().formatHex(derive("hazelcast cluster name"), 0, 12);
  }

  /** HMAC-SHA256 of {@code purpose} under the secret: a key for one purpose that reveals nothing of the others. */
  public byte[] derive(String purpose) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return mac.doFinal(("bottlenose/v1/" + purpose).getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }

  @Override
  public String toString() {
    return "cluster secret from " + origin;
  }
}
