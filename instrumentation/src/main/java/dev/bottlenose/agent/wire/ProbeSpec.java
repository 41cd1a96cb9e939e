package dev.bottlenose.agent.wire;

import dev.bottlenose.instrumentation.ProbeKind;
import dev.bottlenose.model.MethodRef;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code insert} request's arguments, and one item of {@code insertAll}'s {@code probes}: the method, the
 * probe's kind, and the callee (for {@code call_site} probes and only for them). PROTOCOL.md, "insert".
 */
public record ProbeSpec(MethodRef method, ProbeKind kind, MethodRef callee) {
  public static final String OP = "insert";

  public ProbeSpec {
    if (method == null) {
      throw new WireException("method", null, "missing argument method (a /Code method path)");
    }
    if (kind == null) {
      throw new WireException("kind", null, "missing argument kind (a probe kind)");
    }
    if ((kind == ProbeKind.CALL_SITE) != (callee != null)) {
      throw new WireException("callee", callee == null ? null : callee.toPath().toString(),
          "callee is required for call_site probes and only for them (kind " + kind.word() + ", callee "
              + (callee == null ? "absent" : callee.toPath()) + ")");
    }
  }

  /** The arguments as the daemon sends them. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("method", method.toPath().toString());
    m.put("kind", kind.word());
    if (callee != null) {
      m.put("callee", callee.toPath().toString());
    }
    return m;
  }

  /** Reads the arguments; a missing or malformed one throws naming it. */
  public static ProbeSpec fromMap(Map<String, ?> m) {
    return new ProbeSpec(Fields.method(m, "method", true), Fields.kind(m, "kind"), Fields.method(m, "callee", false));
  }
}
