package dev.bottlenose.daemon.channel;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The agent's first frame: who the target is, and what a virtual call, a small allocation and a sample stand
 * for on it ({@code calibration}: {@code virtualCallNanos}, {@code allocationNanos}, {@code samplePeriodNanos};
 * empty from an agent that does not measure them), and the JFR disk repository its recording is written to
 * (null when it has none).
 */
public record Hello(long pid, String javaVersion, String javaVendor, String vmName, String mainClass,
    String commandLine, boolean retransformSupported, String agentVersion, long startedAtMillis, String loadedBy,
    Map<String, Long> calibration, String jfrRepository) {

  public Hello {
    calibration = Map.copyOf(calibration);
  }

  public Hello(long pid, String javaVersion, String javaVendor, String vmName, String mainClass, String commandLine,
      boolean retransformSupported, String agentVersion, long startedAtMillis, String loadedBy) {
    this(pid, javaVersion, javaVendor, vmName, mainClass, commandLine, retransformSupported, agentVersion,
        startedAtMillis, loadedBy, Map.of(), null);
  }

  static Hello from(Map<String, Object> m) {
    return new Hello(Wire.longOf(m, "pid", -1), Wire.text(m, "javaVersion"), Wire.text(m, "javaVendor"),
        Wire.text(m, "vmName"), Wire.text(m, "mainClass"), Wire.text(m, "commandLine"),
        Boolean.TRUE.equals(m.get("retransformSupported")), Wire.text(m, "agentVersion"),
        Wire.longOf(m, "startedAtMillis", 0), Wire.text(m, "loadedBy"), calibration(Wire.map(m, "calibration")),
        m.get("jfrRepository") instanceof String r ? r : null);
  }

  private static Map<String, Long> calibration(Map<String, Object> c) {
    Map<String, Long> out = new LinkedHashMap<>();
    c.forEach((k, v) -> {
      if (v instanceof Number n) {
        out.put(k, n.longValue());
      }
    });
    return out;
  }
}
