package dev.bottlenose.agent.sources;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every session's watched sources, as the agent keeps them: checked when watched, listed in the ledger,
 * dropped with their session. Each turns on its JFR event in the agent's {@link JfrRecording} (threshold 0,
 * a stack trace only when a filter needs one) exactly while it exists; the daemon that asked counts the
 * events from the recording's repository ({@link SourceCounter}). Allocation samples are throttled to
 * {@value #ALLOCATION_SAMPLES_PER_SECOND} a second while watched (JFR's profile setting is 300); their
 * weights keep the sampled bytes an estimate of all bytes allocated.
 */
public final class WatchedSources {
  static final String PART = "sources";
  static final int ALLOCATION_SAMPLES_PER_SECOND = 500;

  private final long samplePeriodNanos;
  private final JfrRecording recording;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, WatchedSource> sources = new LinkedHashMap<>();
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

  /** Starts what {@code source} describes for {@code owner}; a bad source throws IllegalArgumentException. */
  public synchronized long watch(Object source, String owner) {
    WatchedSource s = SourceSpec.parse(source, ids.get() + 1, owner);
    ids.incrementAndGet();
    sources.put(s.id, s);
    try {
      apply();
    } catch (RuntimeException | LinkageError e) {
      sources.remove(s.id);
      applyQuietly();
      throw new IllegalStateException("JFR could not be set up for " + s.event.jfrName + ": " + e, e);
    }
    return s.id;
  }

  /** Stops a source of {@code owner}; false when it has no source {@code id}. */
  public synchronized boolean unwatch(long id, String owner) {
    WatchedSource s = sources.get(id);
    if (s == null || !s.owner.equals(owner)) {
      return false;
    }
    sources.remove(id);
    applyQuietly();
    return true;
  }

  /** Drops every source of {@code owner} (its session ended); how many there were. */
  public synchronized int removeAll(String owner) {
    int before = sources.size();
    sources.values().removeIf(s -> s.owner.equals(owner));
    if (sources.size() != before) {
      applyQuietly();
    }
    return before - sources.size();
  }

  /** Every session's sources: id, source, requester, since. */
  public synchronized List<Object> ledger() {
    List<Object> out = new ArrayList<>();
    sources.values().forEach(s -> out.add(s.describe()));
    return out;
  }

  private void applyQuietly() {
    try {
      apply();
    } catch (RuntimeException | LinkageError e) {
      System.err.println("[bottlenose] updating JFR settings failed: " + e);
    }
  }

  /**
   * Brings the recording's {@value #PART} part in line with the sources. Sources of one kind ask for the same
   * settings, so only the distinct ones are merged: a search watches hundreds of sources, and merging every
   * source's settings at every watch and unwatch made each one cost in proportion to all the others.
   */
  private void apply() {
    Set<Map<String, String>> each = new LinkedHashSet<>();
    for (WatchedSource s : sources.values()) {
      SourceEvent e = s.event;
      Duration period = e == SourceEvent.CPU_SAMPLE ? Duration.ofNanos(s.periodNanos(samplePeriodNanos)) : null;
      Duration threshold = e.hasDuration ? Duration.ZERO : null;
      each.add(JfrRecording.event(e.jfrName, s.needsStack(), period, threshold));
      if (e == SourceEvent.ALLOC_SAMPLE) {
        each.add(JfrRecording.throttle(e.jfrName, ALLOCATION_SAMPLES_PER_SECOND));
      }
    }
    recording.set(PART, JfrRecording.merge(each));
  }
}
