package dev.bottlenose.agent.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request frame's envelope: its number ({@code id}, which the answer carries as {@code re}), its {@code op}, and
 * the arguments, written beside them in the same object (each op's record reads its own). PROTOCOL.md, "Requests".
 */
public record Request(long id, String op, Map<String, Object> arguments) {
  public Request {
    if (op == null || op.isEmpty()) {
      throw new WireException("op", op, "request " + id + " has no op");
    }
    arguments = new LinkedHashMap<>(arguments);
    arguments.remove("id");
    arguments.remove("op");
    arguments = java.util.Collections.unmodifiableMap(arguments);
  }

  /** The frame as the daemon sends it. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    m.put("op", op);
    m.putAll(arguments);
    return m;
  }

  /** Reads the envelope; a frame without an integer id or a text op throws naming it. */
  public static Request fromMap(Map<String, ?> m) {
    if (!(m.get("id") instanceof Long id)) {
      throw new WireException("id", m.get("id"), "request has no integer id: " + m);
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> arguments = (Map<String, Object>) m;
    return new Request(id, Fields.text(m, "op"), arguments);
  }

  /** The answer frame to this request: {@code {"re":id,"ok":true, …result}}. */
  public Map<String, Object> answer(Map<String, ?> result) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("re", id);
    m.put("ok", true);
    m.putAll(result);
    return m;
  }
}
