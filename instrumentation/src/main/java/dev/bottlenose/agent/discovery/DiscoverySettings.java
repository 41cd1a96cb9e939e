package dev.bottlenose.agent.discovery;

import dev.bottlenose.agent.sources.JfrRecording;
import dev.bottlenose.agent.sources.WallClock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the agent's JFR recording turns on for discovery: stack traces only where an event must be attributed
 * to code (slow I/O, contended monitors and parks, long sleeps and waits, samples), slow-only thresholds on I/O,
 * contention and waiting to keep the rate low. The agent applies them; the daemon reads the events they record from the
 * target's repository ({@code daemon.jfr.DiscoveryEvents}) and sends the agent a digest ({@link JfrDigest}).
 */
public final class DiscoverySettings {
  public static final Duration CONTENTION_THRESHOLD = Duration.ofNanos(200_000);
  /**
   * The contention events whose threshold a daemon raises while more of them are recorded than discovery can afford
   * ({@code daemon.jfr.ContentionThresholds}): a server's idle pool threads and futures park thousands of times a
   * second, each park a stack walk in the parking thread, and few of those parks are on a lock. Contended monitor
   * entries stay at {@link #CONTENTION_THRESHOLD}: each is a thread blocked on a monitor another thread holds, and
   * their time is the blocked time of monitor probes on synchronized methods.
   */
  public static final List<String> RATE_BOUNDED_EVENTS = List.of("jdk.ThreadPark");
  /** The highest threshold a daemon may set on a contention event: 128 times the lowest. */
  public static final Duration MAX_CONTENTION_THRESHOLD = CONTENTION_THRESHOLD.multipliedBy(128);
  public static final Duration IO_THRESHOLD = Duration.ofMillis(10);
  /**
   * Sleeps and {@code Object.wait}s recorded from {@link #WAIT_THRESHOLD}, with their stacks while no search counts
   * every one of them without ({@link JfrRecording#SLOW_STACKS}): where threads wait, for the daemon's wait graph
   * (a wall-clock view beside the CPU's; a lock held across a sleep shows there). A thread records at most one a
   * threshold's time, so at most a hundred a second.
   */
  public static final List<String> WAIT_EVENTS = List.of("jdk.ThreadSleep", "jdk.JavaMonitorWait");
  public static final Duration WAIT_THRESHOLD = Duration.ofMillis(10);
  /**
   * Discovery's sampling period, what being attached pays for its call graph. JFR's sampler costs about the
   * same per period whatever the program does (about 0.25 ms of CPU on a two-core machine), so 100 ms
   * rather than 50 saves an eighth of a percent of two busy cores; a search asks for faster sampling by its
   * budget while it runs.
   */
  public static final Duration CALL_GRAPH_PERIOD = Duration.ofMillis(100);
  public static final String ALLOCATION_SAMPLE = "jdk.ObjectAllocationSample";
  /**
   * JFR's sample of one thread in native code per period: the I/O that no event reports (a disk sync on
   * JDK 17) or that is too frequent to record one by one (a million small reads a second) shows here, as a
   * sample whose top frame is a read, a write or a sync ({@code sources.IoNatives}).
   */
  public static final String NATIVE_SAMPLE = "jdk.NativeMethodSample";
  /**
   * JFR's own default for allocation samples; without a throttle JFR emits one, with its stack, at every
   * TLAB refill, thousands a second in a program that allocates. Each sample's weight is the bytes since
   * the thread's previous one, so totals stay right.
   */
  public static final int ALLOCATION_SAMPLES_PER_SECOND = 150;
  public static final String PINNED = "jdk.VirtualThreadPinned";
  /**
   * Each class defined, with its loader, without a stack: which code defines classes, for the search to refine
   * class loading into (a class-loading thread is in the VM, where execution samples do not see it). Recorded in
   * full while the program defines few classes, one second in several while it defines many ({@link
   * ClassDefineDuty}).
   */
  public static final String CLASS_DEFINE = "jdk.ClassDefine";
  /** Written at every flush of the recording: its time says which events a reader has seen all of. */
  public static final String FLUSH = "jdk.Flush";

  private DiscoverySettings() {}

  /** What the agent's recording must turn on for discovery, every contention event from its lowest threshold. */
  public static Map<String, String> settings() {
    return settings(Map.of());
  }

  /**
   * What the agent's recording must turn on for discovery, with the thresholds a daemon asked for ({@link
   * #RATE_BOUNDED_EVENTS}, nanoseconds; each held between {@link #CONTENTION_THRESHOLD} and {@link
   * #MAX_CONTENTION_THRESHOLD}, other names ignored). A threshold raised above the lowest means the program
   * records that event hundreds of times a second even so: its stacks are then asked for only while no watched
   * source counts every such event without them ({@link JfrRecording#SLOW_STACKS}). At the lowest threshold the
   * events are few and their stacks are where a search locates contention, so they stay. The stacks of slow I/O and
   * of long waits go the same way while a source counts every such event without stacks: counting the whole
   * program's socket reads on an HTTP server records 2,600 a second, and with discovery's stacks each cost the
   * reading thread a stack walk (in {@code perf}, JFR's stack walks took 3.6% of the program threads' CPU during a
   * 1% search that did so, against 0.1% alone; its reads were 57,600 of the 101,000 events recorded with stacks).
   */
  public static Map<String, String> settings(Map<String, Long> contentionThresholds) {
    return settings(contentionThresholds, true);
  }

  /**
   * As {@link #settings(Map)}, with class definitions ({@link #CLASS_DEFINE}) recorded or not ({@code
   * classDefines}: {@link ClassDefineDuty}); a part of the recording that counts them turns them on all the same.
   */
  public static Map<String, String> settings(Map<String, Long> contentionThresholds, boolean classDefines) {
    Map<String, String> s = new LinkedHashMap<>();
    s.putAll(JfrRecording.event("jdk.JavaMonitorEnter", true, null, CONTENTION_THRESHOLD));
    for (String event : RATE_BOUNDED_EVENTS) {
      long threshold = contentionThreshold(contentionThresholds, event);
      s.putAll(JfrRecording.event(event, true, null, Duration.ofNanos(threshold)));
      if (threshold > CONTENTION_THRESHOLD.toNanos()) {
        s.put(event + "#stackTrace", JfrRecording.SLOW_STACKS);
      }
    }
    s.putAll(JfrRecording.event(ALLOCATION_SAMPLE, true, null, null));
    s.putAll(JfrRecording.throttle(ALLOCATION_SAMPLE, ALLOCATION_SAMPLES_PER_SECOND));
    for (String io : List.of("jdk.FileRead", "jdk.FileWrite", "jdk.SocketRead", "jdk.SocketWrite")) {
      s.putAll(JfrRecording.event(io, true, null, IO_THRESHOLD));
      s.put(io + "#stackTrace", JfrRecording.SLOW_STACKS);
    }
    for (String wait : WAIT_EVENTS) {
      s.putAll(JfrRecording.event(wait, true, null, WAIT_THRESHOLD));
      s.put(wait + "#stackTrace", JfrRecording.SLOW_STACKS);
    }
    s.putAll(JfrRecording.event("jdk.GarbageCollection", false, null, Duration.ZERO));
    s.putAll(JfrRecording.event("jdk.Compilation", false, null, Duration.ZERO));
    s.putAll(JfrRecording.event("jdk.ExecuteVMOperation", false, null, Duration.ZERO));
    s.putAll(JfrRecording.event("jdk.Deoptimization", false, null, null));
    if (classDefines) {
      s.putAll(JfrRecording.event(CLASS_DEFINE, false, null, null));
    } else {
      s.put(CLASS_DEFINE + "#enabled", "false");
    }
    s.putAll(JfrRecording.event("jdk.ExecutionSample", true, CALL_GRAPH_PERIOD, null));
    s.putAll(JfrRecording.event(NATIVE_SAMPLE, true, CALL_GRAPH_PERIOD, null));
    s.putAll(JfrRecording.event(FLUSH, false, null, null));
    s.putAll(JfrRecording.event(WallClock.EVENT, false, Duration.ofSeconds(1), null));
    if (VirtualThreads.SUPPORTED) {
      s.putAll(JfrRecording.event(PINNED, true, null, Duration.ofMillis(20)));
    }
    return s;
  }

  /** The threshold of rate-bounded event {@code event} in nanoseconds, as asked and held within its bounds. */
  public static long contentionThreshold(Map<String, Long> asked, String event) {
    Long n = asked.get(event);
    long lowest = CONTENTION_THRESHOLD.toNanos();
    return n == null ? lowest : Math.max(lowest, Math.min(MAX_CONTENTION_THRESHOLD.toNanos(), n));
  }

  /** Per event type {@code settings} turns on, the shortest event it records (0: all). */
  public static Map<String, Long> recordedFrom(Map<String, String> settings) {
    Map<String, Long> out = new LinkedHashMap<>();
    settings.forEach((key, value) -> {
      if (key.endsWith("#enabled") && "true".equals(value)) {
        String name = key.substring(0, key.length() - "#enabled".length());
        String threshold = settings.get(name + "#threshold");
        out.put(name, threshold == null ? 0L : Long.parseLong(threshold.substring(0, threshold.indexOf(' '))));
      }
    });
    return out;
  }
}
