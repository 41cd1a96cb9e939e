package dev.bottlenose.agent;

import dev.bottlenose.agent.discovery.Discovery;
import dev.bottlenose.agent.sources.WatchedSources;
import dev.bottlenose.instrumentation.BootstrapRuntime;
import dev.bottlenose.instrumentation.ProbeManager;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one JVM's agent shares between its sessions: the probe manager, discovery, and the baselines
 * for adding JFR monitor-entry time to monitor probes. Created by the first load of the agent.
 */
final class AgentRuntime {
  private static AgentRuntime instance;

  final Instrumentation instrumentation;
  final ProbeManager probes;
  final Discovery discovery;
  /** Null when this runtime image has no {@code jdk.jfr}: {@code watch} is then refused. */
  final WatchedSources sources;
  final long samplePeriodNanos;
  final Calibration calibration;
  final long startedAtMillis = System.currentTimeMillis();
  final Map<Long, MonitorBaseline> monitorBaselines = new ConcurrentHashMap<>();
  private final AtomicInteger sessionNumbers = new AtomicInteger();
  private final AtomicInteger openSessions = new AtomicInteger();

  private AgentRuntime(Instrumentation instrumentation, AgentOptions options) {
    this.instrumentation = instrumentation;
    BootstrapRuntime.install(instrumentation);
    this.probes = new ProbeManager(instrumentation);
    this.discovery = new Discovery(instrumentation);
    discovery.start();
    this.calibration = Calibration.measure();
    this.samplePeriodNanos = options.samplePeriodMillis() * 1_000_000;
    this.sources = watchedSources(samplePeriodNanos);
  }

  private static WatchedSources watchedSources(long samplePeriodNanos) {
    try {
      return new WatchedSources(samplePeriodNanos);
    } catch (LinkageError e) {
      System.err.println("[bottlenose] watched sources unavailable: " + e);
      return null;
    }
  }

  /** The runtime, started by the first load with its options (the sample period comes from that load). */
  static synchronized AgentRuntime get(Instrumentation instrumentation, AgentOptions options) {
    if (instance == null) {
      instance = new AgentRuntime(instrumentation, options);
    }
    return instance;
  }

  void openSession(AgentOptions options, String loadedBy) {
    int number = sessionNumbers.incrementAndGet();
    Session session = new Session(this, options, loadedBy, number);
    Thread t = new Thread(session::run, "bottlenose-channel-" + number);
    t.setDaemon(true);
    t.start();
  }

  void sessionOpened() {
    openSessions.incrementAndGet();
  }

  void sessionClosed() {
    openSessions.decrementAndGet();
  }

  int openSessions() {
    return openSessions.get();
  }

  /** CPU time of the whole process so far, or -1 when the platform does not say. */
  static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  /** Monitor-entry time already seen on a synchronized method when a monitor probe was put into it. */
  record MonitorBaseline(String className, String methodName, String descriptor, long nanos) {}
}
