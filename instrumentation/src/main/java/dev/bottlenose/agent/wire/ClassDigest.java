package dev.bottlenose.agent.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/** The answer to {@code classBytes}: the length and the SHA-256 (lower-case hex) of the class's bytes now. */
public record ClassDigest(long length, String sha256) {
  public ClassDigest {
    if (sha256 == null || sha256.length() != 64) {
      throw new WireException("sha256", sha256, "sha256 must be 64 hex digits, not " + sha256);
    }
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("length", length);
    m.put("sha256", sha256);
    return m;
  }

  public static ClassDigest fromMap(Map<String, ?> m) {
    return new ClassDigest(Fields.number(m, "length"), Fields.text(m, "sha256"));
  }
}
