package dev.bottlenose.agent;

import dev.bottlenose.agent.discovery.ProcessDiscovery;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/** The first frame of every session: who this JVM is, and the token the daemon gave the agent. */
final class Hello {
  static final String AGENT_VERSION = "0.1.0";

  static Map<String, Object> of(AgentRuntime runtime, String token, String loadedBy) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("event", "hello");
    m.put("token", token);
    m.put("pid", ProcessHandle.current().pid());
    m.put("javaVersion", System.getProperty("java.version"));
    m.put("javaVendor", System.getProperty("java.vendor"));
    m.put("vmName", System.getProperty("java.vm.name"));
    m.put("mainClass", ProcessDiscovery.mainClass());
    m.put("commandLine", ProcessDiscovery.commandLine());
    m.put("retransformSupported", runtime.instrumentation.isRetransformClassesSupported());
    m.put("agentVersion", AGENT_VERSION);
    m.put("startedAtMillis", ManagementFactory.getRuntimeMXBean().getStartTime());
    m.put("agentStartedAtMillis", runtime.startedAtMillis);
    m.put("loadedBy", loadedBy);
    String repository = runtime.recording == null ? null : runtime.recording.repository();
    if (repository != null) {
      m.put("jfrRepository", repository);
    }
    Map<String, Object> calibration = new LinkedHashMap<>();
    calibration.put("virtualCallNanos", runtime.calibration.virtualCallNanos());
    calibration.put("allocationNanos", runtime.calibration.allocationNanos());
    calibration.put("samplePeriodNanos", runtime.samplePeriodNanos);
    m.put("calibration", calibration);
    return m;
  }

  private Hello() {}
}
