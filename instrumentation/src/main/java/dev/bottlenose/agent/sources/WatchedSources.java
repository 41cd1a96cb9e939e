package dev.bottlenose.agent.sources;

import dev.bottlenose.agent.AgentLog;
import dev.bottlenose.agent.wire.SourceEntry;
import dev.bottlenose.agent.wire.SourceSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every session's watched sources, as the agent keeps them: checked when watched, listed in the ledger,
 * dropped with their session. Each turns on its JFR event in the agent's {@link JfrRecording} (threshold 0,
 * a stack trace only when a filter needs one) exactly while it exists; the daemon that asked counts the
 * events from the recording's repository ({@code daemon.jfr.SourceCounter}). Native-method samples
 * ({@code io_sample}) are taken at the configured sampling period whatever period a {@code cpu_sample} source
 * asks: JFR takes one native sample per period, among every thread in native code. Allocation samples are throttled to
 * {@value #ALLOCATION_SAMPLES_PER_PERIOD} per the period an {@code alloc_sample} source asks (else the configured one)
 * while watched: 500 a second at 20 ms (JFR's profile setting is 300); their weights keep the sampled bytes an
 * estimate of all bytes allocated.
 */
public final class WatchedSources {
  /**
   * JFR's event for each class defined: a {@code class_load} source turns it on beside {@code jdk.ClassLoad} when
   * this JVM keeps its performance counters in a file ({@link #PERF_DATA}), where the daemon reads its total
   * class-loading time.
   */
  public static final String CLASS_DEFINE = "jdk.ClassDefine";
  /** Whether this JVM keeps its performance counters ({@code /tmp/hsperfdata_<user>/<pid>}; -XX:-UsePerfData: not). */
  static final boolean PERF_DATA = perfData();

  private static boolean perfData() {
    try {
      // HotSpot keeps the file in /tmp whatever java.io.tmpdir says
      return java.nio.file.Files.exists(java.nio.file.Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"),
          Long.toString(ProcessHandle.current().pid())));
    } catch (RuntimeException | Error e) {
      return false;
    }
  }
  static final String PART = "sources";
  /**
   * Allocation samples a watched source asks for per sampling period: 500 a second at a 5% search's 20 ms, 100 at a
   * 1% search's 100 ms, which discovery's own rate ({@code DiscoverySettings.ALLOCATION_SAMPLES_PER_SECOND}) then
   * exceeds. Each sample carries its stack, which the allocating thread walks and the daemon reads (a park with its
   * stack costs the daemon about 40 µs), so allocation samples cost in proportion to the rate the budget buys, as
   * the execution samples do.
   */
  static final int ALLOCATION_SAMPLES_PER_PERIOD = 10;

  /** The allocation samples a second a source asking for samples every {@code periodNanos} gets. */
  static int allocationSamplesPerSecond(long periodNanos) {
    return (int) Math.max(1, Math.round(ALLOCATION_SAMPLES_PER_PERIOD * 1e9 / periodNanos));
  }

  private final long samplePeriodNanos;
  private final JfrRecording recording;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, WatchedSource> sources = new LinkedHashMap<>();
  /** The distinct settings the sources ask for, each with how many sources ask for it. */
  private final Map<Setting, Integer> inUse = new LinkedHashMap<>();
  private final SamplePeriod effectivePeriod;

  public WatchedSources(long samplePeriodNanos, JfrRecording recording) {
    this.samplePeriodNanos = samplePeriodNanos;
    this.recording = recording;
    this.effectivePeriod = new SamplePeriod(samplePeriodNanos);
  }

  /** The configured {@code cpu_sample} period, for sources that ask for none. */
  public long samplePeriodNanos() {
    return samplePeriodNanos;
  }

  /** The period JFR really samples at now: the shortest of every running recording's (ours included). */
  public long effectiveSamplePeriodNanos() {
    effectivePeriod.update();
    return effectivePeriod.nanos();
  }

  /** Starts what {@code source} describes for {@code owner}; a bad source throws a WireException naming the field. */
  public synchronized long watch(SourceSpec source, String owner) {
    WatchedSource s = SourceRules.parse(source, ids.get() + 1, owner);
    if (s.event == SourceEvent.LOCK_SAMPLE) {
      // the agent's own periodic event, made known to JFR only when first asked for
      if (!LockSamples.register()) {
        throw new IllegalStateException("JFR refused the event " + LockSamples.EVENT);
      }
      LockSamples.periodNanos = samplePeriodNanos;
    }
    ids.incrementAndGet();
    sources.put(s.id, s);
    if (inUse.merge(settingsOf(s), 1, Integer::sum) == 1) {
      try {
        apply();
      } catch (RuntimeException | LinkageError e) {
        forget(s);
        applyQuietly();
        throw new IllegalStateException("JFR could not be set up for " + s.event.jfrName + ": " + e, e);
      }
    }
    return s.id;
  }

  /** Stops a source of {@code owner}; false when it has no source {@code id}. */
  public synchronized boolean unwatch(long id, String owner) {
    WatchedSource s = sources.get(id);
    if (s == null || !s.owner.equals(owner)) {
      return false;
    }
    if (forget(s)) {
      applyQuietly();
    }
    return true;
  }

  /** Drops every source of {@code owner} (its session ended); how many there were. */
  public synchronized int removeAll(String owner) {
    List<WatchedSource> theirs = new ArrayList<>();
    for (WatchedSource s : sources.values()) {
      if (s.owner.equals(owner)) {
        theirs.add(s);
      }
    }
    boolean changed = false;
    for (WatchedSource s : theirs) {
      changed |= forget(s);
    }
    if (changed) {
      applyQuietly();
    }
    return theirs.size();
  }

  /** Removes a source; true when no other source asks for its settings any more. */
  private boolean forget(WatchedSource s) {
    sources.remove(s.id);
    return inUse.computeIfPresent(settingsOf(s), (k, n) -> n > 1 ? n - 1 : null) == null;
  }

  /** Every session's sources: id, source, requester, since. */
  public synchronized List<SourceEntry> ledger() {
    List<SourceEntry> out = new ArrayList<>();
    sources.values().forEach(s -> out.add(s.describe()));
    return out;
  }

  private void applyQuietly() {
    try {
      apply();
    } catch (RuntimeException | LinkageError e) {
      AgentLog.line("updating JFR settings failed: " + e);
    }
  }

  /**
   * What one source turns on in the recording: its event, a stack if a filter needs one, its period (a
   * {@code cpu_sample}) or threshold. A small key, so that a watch costs a hash of four fields; the JFR
   * settings are built from it only when the set in use changes.
   */
  private record Setting(SourceEvent event, boolean stack, long periodNanos, boolean counterOnly) {
    Map<String, String> jfr() {
      if (counterOnly) {
        return Map.of();
      }
      Duration period = periodNanos > 0 ? Duration.ofNanos(periodNanos) : null;
      Duration threshold = event.hasDuration ? Duration.ZERO : null;
      if (event == SourceEvent.ALLOC_SAMPLE) {
        Map<String, String> m = JfrRecording.event(event.jfrName, stack, null, threshold);
        m.putAll(JfrRecording.throttle(event.jfrName, allocationSamplesPerSecond(periodNanos)));
        return m;
      }
      Map<String, String> m = JfrRecording.event(event.jfrName, stack, period, threshold);
      if (event == SourceEvent.CLASS_DEFINE) {
        // no stack: the daemon charges each class to its loader's class (SourceEvent.chargedClass)
        return JfrRecording.event(CLASS_DEFINE, false, null, null);
      }
      if (event == SourceEvent.CLASS_LOAD && PERF_DATA) {
        // the daemon shares the JVM's own class-loading time, which it reads from the counters' file, among the
        // classes defined, or counts jdk.ClassLoad's durations where those are longer (SourceCounter)
        m.putAll(JfrRecording.event(CLASS_DEFINE, stack, null, null));
      }
      return m;
    }
  }

  private Setting settingsOf(WatchedSource s) {
    long period = s.event == SourceEvent.CPU_SAMPLE || s.event == SourceEvent.ALLOC_SAMPLE
        ? s.periodNanos(samplePeriodNanos)
        : s.event == SourceEvent.IO_SAMPLE || s.event == SourceEvent.LOCK_SAMPLE ? samplePeriodNanos : 0;
    // class loading of the whole program is the JVM's own counter growth (SourceCounter): no event is needed, and
    // a program that defines thousands of classes a second paid 10-30% of its CPU for the two events per class
    boolean counterOnly = s.event == SourceEvent.CLASS_LOAD && PERF_DATA && s.wholeProgram();
    return new Setting(s.event, s.needsStack(), period, counterOnly);
  }

  /**
   * Brings the recording's {@value #PART} part in line with the sources: the union of the distinct settings
   * in use. Called only when that set changes: a search watches hundreds of sources of a few kinds, and
   * merging every source's settings at every watch and unwatch made each one cost in proportion to all the
   * others.
   */
  private void apply() {
    List<Map<String, String>> settings = new ArrayList<>(inUse.size());
    for (Setting s : inUse.keySet()) {
      settings.add(s.jfr());
    }
    recording.set(PART, JfrRecording.merge(settings));
  }
}
