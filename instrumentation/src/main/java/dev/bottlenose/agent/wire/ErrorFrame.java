package dev.bottlenose.agent.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A refused request: {@code {"re":N,"ok":false,"code":…,"error":…}}, the request's id ({@code re}, null when the
 * frame had no readable id), a code ({@code BAD_REQUEST}, {@code NO_SUCH_METHOD}, …) and a message naming what
 * was wrong. PROTOCOL.md, "Requests".
 */
public record ErrorFrame(Long re, String code, String message) {
  public ErrorFrame {
    if (code == null || code.isEmpty()) {
      throw new WireException("code", code, "an error frame needs a code, not " + code);
    }
    message = message == null ? "" : message;
  }

  /** The frame as the agent sends it ({@code re} is written even when null). */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("re", re);
    m.put("ok", false);
    m.put("code", code);
    m.put("error", message);
    return m;
  }

  /** Whether a response frame is a refusal ({@code ok} not true). */
  public static boolean isError(Map<String, ?> frame) {
    return !Boolean.TRUE.equals(frame.get("ok"));
  }

  /** Reads a refusal; a missing code is {@code UNKNOWN}, a missing message empty. */
  public static ErrorFrame fromMap(Map<String, ?> m) {
    Object re = m.get("re");
    String code = Fields.textOr(m, "code");
    return new ErrorFrame(re instanceof Number n ? n.longValue() : null, code.isEmpty() ? "UNKNOWN" : code,
        Fields.textOr(m, "error"));
  }
}
