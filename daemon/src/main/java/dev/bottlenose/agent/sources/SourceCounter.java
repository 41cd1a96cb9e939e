package dev.bottlenose.agent.sources;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * Counts one daemon's watched sources from the events of the target's recording, read in the daemon (never in
 * the target): each source the agent accepted is added here with the id the agent gave it, and counts the
 * matching events that ended after it was added. Events of the agent's own {@code bottlenose-*} threads are
 * not the program's and are skipped. Handlers never throw: failures are counted.
 */
public final class SourceCounter {
  private static final String AGENT_THREADS = "bottlenose-";

  private final Map<Long, WatchedSource> sources = new LinkedHashMap<>();
  private final Map<String, SourceEvent> byName = new HashMap<>();
  private volatile WatchedSource[][] byEvent = empty();
  private volatile long samplePeriodNanos;
  private volatile long flushedAtMillis;
  private volatile long failures;
  private volatile String lastFailure = "";

  public SourceCounter(long samplePeriodNanos) {
    this.samplePeriodNanos = samplePeriodNanos;
    for (SourceEvent e : SourceEvent.values()) {
      byName.put(e.jfrName, e);
    }
  }

  /** The JFR event names a source can count. */
  public static Set<String> eventNames() {
    Set<String> names = new TreeSet<>();
    for (SourceEvent e : SourceEvent.values()) {
      names.add(e.jfrName);
    }
    return names;
  }

  /** Counts the source {@code spec} (as the agent accepted it) under the agent's {@code id} from now on. */
  public synchronized void add(long id, Map<String, ?> spec) {
    sources.put(id, SourceSpec.parse(spec, id, "daemon"));
    rebuild();
  }

  public synchronized void remove(long id) {
    if (sources.remove(id) != null) {
      rebuild();
    }
  }

  /** The period a {@code cpu_sample} stands for from now on (the agent says what JFR really samples at). */
  public void samplePeriod(long nanos) {
    if (nanos > 0) {
      samplePeriodNanos = nanos;
    }
  }

  /** Every event the stream has delivered so far ended before {@code millis}. */
  public void flushed(long millis) {
    flushedAtMillis = millis;
  }

  /** Cumulative totals of every source, each with the time its counts are complete through. */
  public synchronized List<Map<String, Object>> totals() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (WatchedSource s : sources.values()) {
      out.add(s.totals(flushedAtMillis));
    }
    return out;
  }

  public long failures() {
    return failures;
  }

  public String lastFailure() {
    return lastFailure;
  }

  /** Adds {@code e} to every source it matches. */
  public void accept(RecordedEvent e) {
    SourceEvent type = byName.get(e.getEventType().getName());
    if (type == null) {
      return;
    }
    try {
      dispatch(type, e);
    } catch (RuntimeException ex) {
      failures++;
      lastFailure = type.jfrName + ": " + ex;
    }
  }

  private void dispatch(SourceEvent type, RecordedEvent e) {
    WatchedSource[] current = byEvent[type.ordinal()];
    if (current.length == 0 || !type.counts(e)) {
      return;
    }
    RecordedThread thread = type.threadField == null ? null : e.getThread(type.threadField);
    if (thread != null && thread.getJavaName() != null && thread.getJavaName().startsWith(AGENT_THREADS)) {
      return;
    }
    List<RecordedFrame> frames = null;
    long end = e.getEndTime().toEpochMilli();
    long nanos = -1;
    long bytes = 0;
    for (WatchedSource s : current) {
      if (end < s.sinceMillis) {
        continue;
      }
      if (frames == null && s.needsStack()) {
        RecordedStackTrace st = e.getStackTrace();
        frames = st == null ? List.of() : st.getFrames();
      }
      if (s.matches(e, thread, frames)) {
        if (nanos < 0) {
          nanos = type.nanos(e, samplePeriodNanos);
          bytes = type.bytes(e);
        }
        s.add(nanos, bytes);
      }
    }
  }

  private void rebuild() {
    WatchedSource[][] next = empty();
    for (WatchedSource s : sources.values()) {
      int i = s.event.ordinal();
      WatchedSource[] grown = java.util.Arrays.copyOf(next[i], next[i].length + 1);
      grown[grown.length - 1] = s;
      next[i] = grown;
    }
    byEvent = next;
  }

  private static WatchedSource[][] empty() {
    WatchedSource[][] a = new WatchedSource[SourceEvent.values().length][];
    java.util.Arrays.fill(a, new WatchedSource[0]);
    return a;
  }
}
