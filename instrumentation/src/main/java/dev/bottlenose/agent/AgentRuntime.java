package dev.bottlenose.agent;

import dev.bottlenose.agent.discovery.Discovery;
import dev.bottlenose.agent.discovery.DiscoverySettings;
import dev.bottlenose.agent.sources.JfrRecording;
import dev.bottlenose.agent.sources.ToolThreads;
import dev.bottlenose.agent.sources.WatchedSources;
import dev.bottlenose.instrumentation.BootstrapRuntime;
import dev.bottlenose.instrumentation.ProbeManager;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one JVM's agent shares between its sessions: the probe manager, discovery (running while a session
 * lives: made for the first, stopped with the last, so no thread of the agent's stays when no daemon is
 * there), the JFR recording the daemons read (running while a session is connected), and the baselines for
 * adding JFR monitor-entry time to monitor probes. Created by the first load of the agent.
 */
final class AgentRuntime {
  static final long DISCOVERY_STOP_MILLIS = 2000;
  /** Discovery's part of the recording's settings. */
  private static final String DISCOVERY = "discovery";
  private static AgentRuntime instance;
  private static final java.lang.management.OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();

  final Instrumentation instrumentation;
  final ProbeManager probes;
  /** While a session holds it; null when none does. */
  private Discovery discovery;
  private final Set<Integer> discoveryHolders = new HashSet<>();
  /** Null when this runtime image has no {@code jdk.jfr}: {@code watch} is then refused. */
  final JfrRecording recording;
  /** Null exactly when {@link #recording} is. */
  final WatchedSources sources;
  final long samplePeriodNanos;
  final Calibration calibration;
  final long startedAtMillis = System.currentTimeMillis();
  final Map<Long, MonitorBaseline> monitorBaselines = new ConcurrentHashMap<>();
  private final AtomicInteger sessionNumbers = new AtomicInteger();
  private final ConcurrentSkipListSet<Integer> openSessions = new ConcurrentSkipListSet<>();
  /**
   * Guards discovery's part of the recording's settings (not this object: discovery's thread sets them, and a
   * session stopping discovery waits for that thread while holding this object).
   */
  private final Object discoverySettings = new Object();
  /** The contention thresholds the daemon whose digests are taken asked for (none: the lowest). */
  private Map<String, Long> contentionThresholds = Map.of();
  /** Whether discovery records class definitions now ({@code discovery.ClassDefineDuty}). */
  private boolean classDefines = true;

  private AgentRuntime(Instrumentation instrumentation, AgentOptions options) {
    this.instrumentation = instrumentation;
    BootstrapRuntime.install(instrumentation);
    this.probes = new ProbeManager(instrumentation);
    this.calibration = Calibration.measure();
    this.samplePeriodNanos = options.samplePeriodMillis() * 1_000_000;
    this.recording = recording();
    this.sources = recording == null ? null : new WatchedSources(samplePeriodNanos, recording);
  }

  /** Discovery for session {@code number}, started if no other session holds it. */
  synchronized Discovery holdDiscovery(int number) {
    if (discovery == null) {
      discovery = new Discovery(instrumentation);
      discovery.onClassDefines(this::classDefines);
      discovery.start();
      discovery.jfrStatus(jfrStatus());
    }
    discoveryHolders.add(number);
    return discovery;
  }

  /** Session {@code number} has ended: with the last holder discovery stops, its thread ends, what it held goes. */
  synchronized void releaseDiscovery(int number) {
    if (discoveryHolders.remove(number) && discoveryHolders.isEmpty() && discovery != null) {
      Discovery stopping = discovery;
      discovery = null;
      try {
        stopping.stop(DISCOVERY_STOP_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The running discovery; a session asks only while it holds it, so never null then. */
  synchronized Discovery discovery() {
    if (discovery == null) {
      throw new IllegalStateException("discovery is not running: no session holds it");
    }
    return discovery;
  }

  private String jfrStatus() {
    return recording == null ? "unavailable: this runtime image has no jdk.jfr" : recording.status();
  }

  private static JfrRecording recording() {
    try {
      JfrRecording r = new JfrRecording();
      r.set(DISCOVERY, DiscoverySettings.settings());
      return r;
    } catch (LinkageError e) {
      AgentLog.line("JFR unavailable: " + e);
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
    ToolThreads.newThread("bottlenose-channel-" + number, session::run).start();
  }

  /** Session {@code number} is connected: the recording runs from now on. */
  synchronized void sessionOpened(int number) {
    openSessions.add(number);
    if (recording != null) {
      recording.start();
      if (discovery != null) {
        discovery.jfrStatus(recording.status());
      }
    }
  }

  /** Session {@code number} has gone: with the last one the recording stops, nobody is left to read it. */
  synchronized void sessionClosed(int number) {
    openSessions.remove(number);
    if (recording != null && openSessions.isEmpty()) {
      recording.stop();
      synchronized (discoverySettings) {
        contentionThresholds = Map.of();
        classDefines = true;
        setDiscoverySettings();
      }
      if (discovery != null) {
        discovery.jfrStatus(recording.status());
      }
    }
  }

  /**
   * The thresholds of discovery's contention events that the daemon whose digests are taken asked for: the
   * recording's discovery part is set again (and applied only if it changed). Back to the lowest when the last
   * session goes.
   */
  void contentionThresholds(Map<String, Long> asked) {
    synchronized (discoverySettings) {
      if (!asked.isEmpty()) {
        contentionThresholds = Map.copyOf(asked);
        setDiscoverySettings();
      }
    }
  }

  /** Discovery records class definitions from now on or not ({@code discovery.ClassDefineDuty}). */
  private void classDefines(boolean recorded) {
    synchronized (discoverySettings) {
      classDefines = recorded;
      setDiscoverySettings();
    }
  }

  /** Applies discovery's part of the settings as they are now; the caller holds {@link #discoverySettings}. */
  private void setDiscoverySettings() {
    if (recording != null) {
      recording.set(DISCOVERY, DiscoverySettings.settings(contentionThresholds, classDefines));
    }
  }

  int openSessions() {
    return openSessions.size();
  }

  /**
   * Whether session {@code number} is the one whose JFR digests discovery takes: the oldest open one (each
   * daemon reads the same repository, and taking every daemon's digest would count each event again).
   */
  boolean takesDigestsFrom(int number) {
    Integer first = openSessions.isEmpty() ? null : openSessions.first();
    return first != null && first == number;
  }

  /** CPU time of the whole process so far, or -1 when the platform does not say. */
  static long processCpuNanos() {
    if (OS instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  /** Monitor-entry time already seen on a synchronized method when a monitor probe was put into it. */
  record MonitorBaseline(String className, String methodName, String descriptor, long nanos) {}
}
