package dev.bottlenose.agent.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Why one item of a batch failed: the code {@code insert} or {@code remove} would answer and a message. An item
 * of {@code insertAll}'s {@code results} is {@code {"error": failure}}; one of {@code removeMany}'s
 * {@code failures} carries its {@code probeId} too (null for an insert).
 */
public record Failure(Long probeId, String code, String message) {
  public Failure {
    if (code == null || code.isEmpty()) {
      throw new WireException("code", code, "a failure needs a code, not " + code);
    }
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    if (probeId != null) {
      m.put("probeId", probeId);
    }
    m.put("code", code);
    m.put("message", message);
    return m;
  }

  public static Failure fromMap(Map<String, ?> m) {
    return new Failure(m.get("probeId") == null ? null : Fields.number(m, "probeId"), Fields.text(m, "code"),
        Fields.text(m, "message", ""));
  }

  /** An insertAll result item that failed: {@code {"error": {...}}}. */
  public Map<String, Object> toItem() {
    return Map.of("error", toMap());
  }

  /** The failure an insertAll result item holds, or null when it is a probe inserted. */
  public static Failure ofItem(Map<String, ?> item) {
    Map<String, Object> error = Fields.mapOr(item, "error");
    return error.isEmpty() ? null : fromMap(error);
  }
}
