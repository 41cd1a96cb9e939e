package dev.bottlenose.agent.sources;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import jdk.jfr.Recording;

/**
 * The agent's one JFR recording, written to the JVM's disk repository and read by the daemons from there:
 * nothing in the target parses events, so neither the parser's work, its allocation nor its JIT compilation
 * lands on the program. Its settings are the union of named parts (discovery's, the watched sources') and
 * follow every change; it runs while at least one daemon is connected.
 */
public final class JfrRecording {
  static final Duration MAX_AGE = Duration.ofMinutes(2);
  static final long MAX_SIZE = 64L * 1024 * 1024;
  /**
   * A part's {@code #stackTrace} value asking for the stacks of the events it records from its threshold, unless
   * another part counts the event from a lower threshold without stacks ({@link #merge}).
   */
  public static final String SLOW_STACKS = "slow-only";
  private static final String STACK = "#stackTrace";
  private static final String THRESHOLD = "#threshold";

  private final Map<String, Map<String, String>> parts = new LinkedHashMap<>();
  private Recording recording;
  private Map<String, String> applied = Map.of();
  private volatile String status = "stopped";

  /**
   * Sets one part's settings ({@code "jdk.ExecutionSample#period" → "20 ms"}, …) and applies the union if it
   * changed: every settings call on a running recording makes JFR recompute the settings of every event type,
   * and a search watching a hundred sources of the same kind at once must not pay that a hundred times.
   */
  public synchronized void set(String part, Map<String, String> settings) {
    parts.put(part, Map.copyOf(settings));
    Map<String, String> union = merged();
    if (recording != null && !union.equals(applied)) {
      recording.setSettings(union);
      applied = union;
    }
  }

  /** Starts the recording if it is not running; false (with the reason in {@link #status()}) when JFR cannot. */
  public synchronized boolean start() {
    if (recording != null) {
      return true;
    }
    try {
      applied = merged();
      WallClock.register();
      if ("true".equals(applied.get(LockSamples.EVENT + "#enabled"))) {
        LockSamples.register();  // a source asked for it before a stop took it out of JFR
      }
      Recording r = new Recording(applied);
      r.setName("bottlenose");
      r.setToDisk(true);
      r.setMaxAge(MAX_AGE);
      r.setMaxSize(MAX_SIZE);
      r.start();
      recording = r;
      status = "running";
      closeRepository();
      return true;
    } catch (RuntimeException | LinkageError e) {
      status = "unavailable: " + e;
      return false;
    }
  }

  /**
   * Makes the JVM's JFR repository this user's alone ({@code 0700}): JFR creates it open to every local user
   * to read, and the recording holds the program's method and thread names. The JVM and the daemons (this
   * user's, or root's) read it all the same. Left as it is when it cannot be changed.
   */
  private static void closeRepository() {
    String path = System.getProperty("jdk.jfr.repository");
    if (path == null) {
      return;
    }
    try {
      Path dir = Path.of(path);
      if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      }
    } catch (IOException | RuntimeException e) {
      // another user's repository, or a file system without POSIX modes: the recording works all the same
    }
  }

  /** Stops and discards the recording (no daemon is left to read it), and takes the agent's own events out of JFR. */
  public synchronized void stop() {
    LockSamples.unregister();
    WallClock.unregister();
    if (recording != null) {
      Recording r = recording;
      recording = null;
      status = "stopped";
      try {
        r.close();
      } catch (RuntimeException e) {
        status = "stopped; closing failed: " + e;
      }
    }
  }

  /**
   * Writes the recording as it is now to {@code file} (JFR's {@link Recording#dump}: the chunks it keeps, the last
   * {@link #MAX_AGE} and {@link #MAX_SIZE} at most, the current one ended first); answers when the recording started
   * (epoch milliseconds). No running recording is an IllegalStateException saying so. The copy is made without
   * this object's lock, so other sessions' settings changes do not wait for it; a recording stopped meanwhile fails
   * the dump.
   */
  public long dump(Path file) throws IOException {
    Recording r;
    synchronized (this) {
      r = recording;
      if (r == null) {
        throw new IllegalStateException("no JFR recording is running (" + status + ")");
      }
    }
    r.dump(file);
    java.time.Instant start = r.getStartTime();
    return start == null ? 0 : start.toEpochMilli();
  }

  /** The JVM's JFR disk repository, where the daemons read this recording; null while none exists. */
  public String repository() {
    return recording == null ? null : System.getProperty("jdk.jfr.repository");
  }

  /** {@code running}, {@code stopped} or {@code unavailable: <why>}. */
  public String status() {
    return status;
  }

  /**
   * The union of the parts: an event is on, with a stack trace, at the shortest period and threshold and
   * the highest throttle rate any part asks.
   */
  Map<String, String> merged() {
    return merge(parts.values());
  }

  /**
   * The union of {@code all} parts' settings. A part that asks for the stacks of only the slow events it records
   * ({@link #SLOW_STACKS}) gets them while no other part records the event from a lower threshold without asking
   * for stacks: a search counting every park or socket read of the whole program (threshold 0) without stacks
   * while discovery wants the stacks of the slow ones would otherwise make JFR walk the stack at every event, about
   * 5 µs against 0.6 µs without (BENCHMARKS.md, "The parts, each alone"), ten thousand times a second in a
   * server's idle pool threads. Discovery goes without those stacks while the other part counts.
   */
  static Map<String, String> merge(Iterable<Map<String, String>> all) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map<String, String> settings : all) {
      settings.forEach((key, value) -> out.merge(key, value, (a, b) -> union(key, a, b)));
    }
    for (Map.Entry<String, String> e : out.entrySet()) {
      if (e.getKey().endsWith(STACK) && SLOW_STACKS.equals(e.getValue())) {
        String event = e.getKey().substring(0, e.getKey().length() - STACK.length());
        e.setValue(String.valueOf(slowStacksServed(event, out.get(event + THRESHOLD), all)));
      }
    }
    return out;
  }

  /** Whether a part asking for {@code event}'s slow stacks records it from {@code threshold}, the union's. */
  private static boolean slowStacksServed(String event, String threshold, Iterable<Map<String, String>> all) {
    long union = SamplePeriod.parse(threshold);
    for (Map<String, String> settings : all) {
      if (SLOW_STACKS.equals(settings.get(event + STACK))) {
        long own = SamplePeriod.parse(settings.get(event + THRESHOLD));
        if (union < 0 || own <= union) {
          return true;
        }
      }
    }
    return false;
  }

  private static String union(String key, String a, String b) {
    if (key.endsWith(STACK)) {
      return "true".equals(a) || "true".equals(b) ? "true"
          : SLOW_STACKS.equals(a) || SLOW_STACKS.equals(b) ? SLOW_STACKS : "false";
    }
    if (key.endsWith("#enabled")) {
      return String.valueOf("true".equals(a) || "true".equals(b));
    }
    if (key.endsWith("#throttle")) {
      return perSecond(a) >= perSecond(b) ? a : b;
    }
    if (key.endsWith("#period") || key.endsWith("#threshold")) {
      long x = SamplePeriod.parse(a);
      long y = SamplePeriod.parse(b);
      if (x < 0 || y < 0) {
        return x < 0 ? b : a;
      }
      return x <= y ? a : b;
    }
    return b;
  }

  /** A throttle's rate, e.g. {@code 150/s}: events per second; {@code off} (no limit) or unreadable: infinite. */
  static double perSecond(String throttle) {
    int slash = throttle.indexOf('/');
    if (slash < 0) {
      return Double.POSITIVE_INFINITY;
    }
    try {
      double n = Double.parseDouble(throttle.substring(0, slash).trim());
      switch (throttle.substring(slash + 1).trim()) {
        case "ms":
          return n * 1000;
        case "s":
          return n;
        case "m":
          return n / 60;
        case "h":
          return n / 3600;
        default:
          return Double.POSITIVE_INFINITY;
      }
    } catch (NumberFormatException e) {
      return Double.POSITIVE_INFINITY;
    }
  }

  /** Limits a throttled event (JFR's {@code jdk.ObjectAllocationSample}) to {@code perSecond} events a second. */
  public static Map<String, String> throttle(String name, int perSecond) {
    return Map.of(name + "#throttle", perSecond + "/s");
  }

  /** The settings of one event: enabled, with or without stack trace, and a period or a threshold (null: none). */
  public static Map<String, String> event(String name, boolean stackTrace, Duration period, Duration threshold) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(name + "#enabled", "true");
    m.put(name + "#stackTrace", String.valueOf(stackTrace));
    if (period != null) {
      m.put(name + "#period", period.toNanos() + " ns");
    }
    if (threshold != null) {
      m.put(name + "#threshold", threshold.toNanos() + " ns");
    }
    return m;
  }
}
