package dev.bottlenose.daemon.channel;

import java.util.Map;

/** The agent's first frame: who the target is. */
public record Hello(long pid, String javaVersion, String javaVendor, String vmName, String mainClass,
    String commandLine, boolean retransformSupported, String agentVersion, long startedAtMillis, String loadedBy) {

  static Hello from(Map<String, Object> m) {
    return new Hello(Wire.longOf(m, "pid", -1), Wire.text(m, "javaVersion"), Wire.text(m, "javaVendor"),
        Wire.text(m, "vmName"), Wire.text(m, "mainClass"), Wire.text(m, "commandLine"),
        Boolean.TRUE.equals(m.get("retransformSupported")), Wire.text(m, "agentVersion"),
        Wire.longOf(m, "startedAtMillis", 0), Wire.text(m, "loadedBy"));
  }
}
