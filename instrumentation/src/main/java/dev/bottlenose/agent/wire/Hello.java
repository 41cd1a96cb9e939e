package dev.bottlenose.agent.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The agent's first frame of every session ({@code "event": "hello"}), written by the agent and read by the
 * daemon: the token the daemon gave the agent, who the target is, what a virtual call, a small allocation and
 * a sample stand for on it ({@code calibration}: {@code virtualCallNanos}, {@code allocationNanos},
 * {@code samplePeriodNanos}; empty from an agent that does not measure them), and the JFR disk repository its
 * recording is written to (null when it has none). PROTOCOL.md, "hello".
 */
public record Hello(String token, long pid, String javaVersion, String javaVendor, String vmName, String mainClass,
    String commandLine, boolean retransformSupported, String agentVersion, long startedAtMillis,
    long agentStartedAtMillis, String loadedBy, Map<String, Long> calibration, String jfrRepository) {
  /** The version of the agent and its side of the channel. */
  public static final String AGENT_VERSION = "0.1.0";
  static final String EVENT = "hello";

  public Hello {
    calibration = Map.copyOf(calibration);
  }

  /** Whether a frame is a hello (its {@code event}). */
  public static boolean isHello(Map<String, Object> frame) {
    return EVENT.equals(frame.get("event"));
  }

  /** The frame as the agent sends it. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("event", EVENT);
    m.put("token", token);
    m.put("pid", pid);
    m.put("javaVersion", javaVersion);
    m.put("javaVendor", javaVendor);
    m.put("vmName", vmName);
    m.put("mainClass", mainClass);
    m.put("commandLine", commandLine);
    m.put("retransformSupported", retransformSupported);
    m.put("agentVersion", agentVersion);
    m.put("startedAtMillis", startedAtMillis);
    m.put("agentStartedAtMillis", agentStartedAtMillis);
    m.put("loadedBy", loadedBy);
    if (jfrRepository != null) {
      m.put("jfrRepository", jfrRepository);
    }
    m.put("calibration", new LinkedHashMap<>(calibration));
    return m;
  }

  /** Reads a hello frame; a missing text is null, a missing number -1 (pid) or 0, a calibration entry that is not a number is left out. */
  public static Hello fromMap(Map<String, Object> m) {
    return new Hello(text(m, "token"), number(m, "pid", -1), text(m, "javaVersion"), text(m, "javaVendor"),
        text(m, "vmName"), text(m, "mainClass"), text(m, "commandLine"), Boolean.TRUE.equals(m.get("retransformSupported")),
        text(m, "agentVersion"), number(m, "startedAtMillis", 0), number(m, "agentStartedAtMillis", 0),
        text(m, "loadedBy"), calibration(m.get("calibration")), text(m, "jfrRepository"));
  }

  private static String text(Map<String, Object> m, String key) {
    return m.get(key) instanceof String s ? s : null;
  }

  private static long number(Map<String, Object> m, String key, long otherwise) {
    return m.get(key) instanceof Number n ? n.longValue() : otherwise;
  }

  private static Map<String, Long> calibration(Object value) {
    Map<String, Long> out = new LinkedHashMap<>();
    if (value instanceof Map<?, ?> c) {
      c.forEach((k, v) -> {
        if (k instanceof String key && v instanceof Number n) {
          out.put(key, n.longValue());
        }
      });
    }
    return out;
  }
}
