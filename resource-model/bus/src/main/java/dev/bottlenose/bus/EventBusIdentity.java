package dev.bottlenose.bus;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The key and certificate every member presents on the clustered event bus, and the one certificate it
 * trusts: both derived from the {@link ClusterSecret}, so the bus's mutual TLS admits exactly the processes
 * that hold the secret, with nothing to distribute but the secret.
 *
 * <p>The key is Ed25519, whose private key is by definition 32 bytes (RFC 8032): here a purpose-bound HMAC
 * of the secret. Ed25519 signatures are deterministic too, so every member derives the same self-signed
 * certificate byte for byte, and each trusts exactly that one. The certificate is a plain X.509 v1 one,
 * encoded here in DER (about forty lines; a library such as Bouncy Castle would add 9 MB to each jar for it).
 */
public final class EventBusIdentity {
  private static final byte[] ED25519_ALGORITHM = {0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70};
  private static final byte[] COMMON_NAME = {0x06, 0x03, 0x55, 0x04, 0x03};
  private static final String ALIAS = "bottlenose-member";

  private final X509Certificate certificate;
  private final byte[] keyStore;
  private final byte[] trustStore;
  private final String password;

  private EventBusIdentity(X509Certificate certificate, byte[] keyStore, byte[] trustStore, String password) {
    this.certificate = certificate;
    this.keyStore = keyStore;
    this.trustStore = trustStore;
    this.password = password;
  }

  public static EventBusIdentity derive(ClusterSecret secret) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
      generator.initialize(NamedParameterSpec.ED25519, new SeedRandom(secret.derive("event-bus ed25519 key")));
      KeyPair pair = generator.generateKeyPair();
      X509Certificate certificate = selfSigned(pair, secret);
      byte[] random = new byte[18];
      new SecureRandom().nextBytes(random);
      String password = HexFormat.of().formatHex(random);
      KeyStore keys = KeyStore.getInstance("JKS");
      keys.load(null, null);
      keys.setKeyEntry(ALIAS, pair.getPrivate(), password.toCharArray(), new Certificate[] {certificate});
      KeyStore trusted = KeyStore.getInstance("JKS");
      trusted.load(null, null);
      trusted.setCertificateEntry(ALIAS, certificate);
      return new EventBusIdentity(certificate, bytes(keys, password), bytes(trusted, password), password);
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot derive the event bus's key from the cluster secret: " + e.getMessage(), e);
    }
  }

  /** The certificate every member presents and trusts. */
  public X509Certificate certificate() {
    return certificate;
  }

  /**
   * A JKS key store with the member's key and certificate, under {@link #password()}. The stores never leave the
   * process's memory, so their protection guards nothing; JKS's costs next to nothing, where writing and reading
   * them as PKCS#12 (ten thousand rounds of key derivation for the key and as many for each MAC) took about 0.15 s
   * of CPU in each process at its start.
   */
  public byte[] keyStore() {
    return keyStore.clone();
  }

  /** A JKS trust store holding only the certificate, under {@link #password()}. */
  public byte[] trustStore() {
    return trustStore.clone();
  }

  /** The stores' password: random per process, they never leave memory. */
  public String password() {
    return password;
  }

  private static byte[] bytes(KeyStore store, String password) throws GeneralSecurityException, IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    store.store(out, password.toCharArray());
    return out.toByteArray();
  }

  private static X509Certificate selfSigned(KeyPair pair, ClusterSecret secret) throws GeneralSecurityException {
    byte[] name = der(0x30, der(0x31, der(0x30, COMMON_NAME,
        der(0x0c, ("Bottlenose cluster " + secret.clusterName()).getBytes(StandardCharsets.UTF_8)))));
    byte[] serial = Arrays.copyOf(secret.derive("event-bus certificate serial"), 16);
    serial[0] = (byte) ((serial[0] & 0x3f) | 0x40);
    byte[] validity = der(0x30,
        der(0x17, "200101000000Z".getBytes(StandardCharsets.US_ASCII)),
        der(0x18, "99991231235959Z".getBytes(StandardCharsets.US_ASCII)));
    byte[] tbs = der(0x30, der(0x02, new BigInteger(1, serial).toByteArray()), ED25519_ALGORITHM, name, validity, name,
        pair.getPublic().getEncoded());
    Signature signer = Signature.getInstance("Ed25519");
    signer.initSign(pair.getPrivate());
    signer.update(tbs);
    byte[] signature = signer.sign();
    byte[] bitString = new byte[signature.length + 1];
    System.arraycopy(signature, 0, bitString, 1, signature.length);
    byte[] encoded = der(0x30, tbs, ED25519_ALGORITHM, der(0x03, bitString));
    return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(encoded));
  }

  /** One DER element: tag, definite length, and the concatenated contents. */
  static byte[] der(int tag, byte[]... contents) {
    int length = 0;
    for (byte[] c : contents) {
      length += c.length;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(length + 6);
    out.write(tag);
    if (length < 0x80) {
      out.write(length);
    } else {
      byte[] digits = BigInteger.valueOf(length).toByteArray();
      int skip = digits[0] == 0 ? 1 : 0;
      out.write(0x80 | (digits.length - skip));
      out.write(digits, skip, digits.length - skip);
    }
    for (byte[] c : contents) {
      out.write(c, 0, c.length);
    }
    return out.toByteArray();
  }

  /** Hands the key generator the derived seed as its "random" private key, and refuses to be used for more. */
  private static final class SeedRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;
    private transient byte[] seed;

    SeedRandom(byte[] seed) {
      this.seed = seed.clone();
    }

    @Override
    public void nextBytes(byte[] bytes) {
      if (seed == null || bytes.length != seed.length) {
        throw new IllegalStateException("the Ed25519 key generator asked for " + bytes.length + " bytes, not one 32-byte seed");
      }
      System.arraycopy(seed, 0, bytes, 0, bytes.length);
      seed = null;
    }
  }
}
