package dev.bottlenose.agent.sources;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import jdk.jfr.EventSettings;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

/**
 * Every session's watched sources, counted from one in-process JFR {@link RecordingStream} of their own
 * (on the {@code bottlenose-sources} thread), separate from discovery's so that each event type is
 * enabled here, with threshold 0 and stack traces only when a filter needs them, exactly while a source
 * needs it. The stream exists only while some source does. Handlers never throw: failures are counted.
 */
public final class WatchedSources {
  private static final String AGENT_THREADS = "bottlenose-";
  private static final long START_WAIT_MILLIS = 2000;

  private final long samplePeriodNanos;
  private final AtomicLong ids = new AtomicLong();
  private final AtomicLong handlerFailures = new AtomicLong();
  private final Map<Long, WatchedSource> sources = new LinkedHashMap<>();
  private final Map<SourceEvent, Consumer<RecordedEvent>> handlers = new EnumMap<>(SourceEvent.class);
  private final Map<SourceEvent, Boolean> withStacks = new EnumMap<>(SourceEvent.class);
  private final SamplePeriod effectivePeriod;
  private volatile WatchedSource[][] byEvent = empty();
  private volatile boolean[] stacks = new boolean[SourceEvent.values().length];
  private volatile String lastFailure = "";
  private volatile long flushedAtMillis;
  private RecordingStream stream;

  public WatchedSources(long samplePeriodNanos) {
    this.samplePeriodNanos = samplePeriodNanos;
    this.effectivePeriod = new SamplePeriod(samplePeriodNanos);
  }

  /** The configured {@code cpu_sample} period. */
  public long samplePeriodNanos() {
    return samplePeriodNanos;
  }

  /** Starts counting what {@code source} describes for {@code owner}; a bad source throws IllegalArgumentException. */
  public synchronized long watch(Object source, String owner) {
    WatchedSource s = SourceSpec.parse(source, ids.get() + 1, owner);
    ids.incrementAndGet();
    sources.put(s.id, s);
    try {
      refresh();
    } catch (RuntimeException | LinkageError e) {
      sources.remove(s.id);
      refreshQuietly();
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
    refreshQuietly();
    return true;
  }

  /** Drops every source of {@code owner} (its session ended); how many there were. */
  public synchronized int removeAll(String owner) {
    int before = sources.size();
    sources.values().removeIf(s -> s.owner.equals(owner));
    if (sources.size() != before) {
      refreshQuietly();
    }
    return before - sources.size();
  }

  /**
   * Cumulative totals of {@code owner}'s sources, each with {@code throughMillis}: the time its counts are
   * complete through (the last stream flush, JFR delivering events about once a second; never before
   * the source was watched).
   */
  public synchronized List<Object> totals(String owner) {
    List<Object> out = new ArrayList<>();
    for (WatchedSource s : sources.values()) {
      if (s.owner.equals(owner)) {
        out.add(s.totals(flushedAtMillis));
      }
    }
    return out;
  }

  /** After a flush every event that ended before it has been dispatched. */
  private void flushed() {
    effectivePeriod.update();
    flushedAtMillis = System.currentTimeMillis();
  }

  /** Every session's sources: id, source, requester, since. */
  public synchronized List<Object> ledger() {
    List<Object> out = new ArrayList<>();
    sources.values().forEach(s -> out.add(s.describe()));
    return out;
  }

  public long handlerFailures() {
    return handlerFailures.get();
  }

  public String lastFailure() {
    return lastFailure;
  }

  private void refreshQuietly() {
    try {
      refresh();
    } catch (RuntimeException | LinkageError e) {
      lastFailure = "updating JFR settings: " + e;
    }
  }

  /** Brings the arrays the handlers read, the JFR settings and the stream in line with the sources. */
  private void refresh() {
    WatchedSource[][] next = empty();
    boolean[] nextStacks = new boolean[next.length];
    for (WatchedSource s : sources.values()) {
      int i = s.event.ordinal();
      WatchedSource[] grown = java.util.Arrays.copyOf(next[i], next[i].length + 1);
      grown[grown.length - 1] = s;
      next[i] = grown;
      nextStacks[i] |= s.needsStack();
    }
    byEvent = next;
    stacks = nextStacks;
    if (sources.isEmpty()) {
      closeStream();
      return;
    }
    boolean fresh = stream == null;
    Recording recording = null;
    if (fresh) {
      List<Recording> before = FlightRecorder.getFlightRecorder().getRecordings();
      stream = new RecordingStream();
      recording = added(before);
      stream.setReuse(true);
      stream.setOrdered(false);
      stream.onFlush(this::flushed);
    }
    for (SourceEvent e : SourceEvent.values()) {
      configure(e, next[e.ordinal()].length > 0, nextStacks[e.ordinal()]);
    }
    if (fresh) {
      RecordingStream started = stream;
      Thread t = new Thread(() -> run(started), "bottlenose-sources");
      t.setDaemon(true);
      t.start();
      awaitRunning(recording);
    }
  }

  /** The recording a new stream made: the one not among {@code before}. */
  private static Recording added(List<Recording> before) {
    for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
      if (!before.contains(r)) {
        return r;
      }
    }
    return null;
  }

  /**
   * Waits (at most {@value #START_WAIT_MILLIS} ms) until the stream's recording runs: the stream only sees
   * events from its recording's start, and a source must count what happens once {@code watch} is answered.
   */
  private static void awaitRunning(Recording recording) {
    long deadline = System.nanoTime() + START_WAIT_MILLIS * 1_000_000;
    try {
      while (recording != null && recording.getState() == RecordingState.NEW && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Brings one event type's settings in line with its sources. Only a change is applied: every settings
   * call on a running recording makes JFR recompute the settings of every event type, which a search
   * enabling a hundred metrics at once would otherwise pay hundreds of times per metric.
   */
  private void configure(SourceEvent e, boolean needed, boolean stack) {
    Consumer<RecordedEvent> handler = handlers.get(e);
    if (!needed) {
      if (handler != null) {
        stream.disable(e.jfrName);
        stream.remove(handler);
        handlers.remove(e);
      }
      withStacks.remove(e);
      return;
    }
    if (handler != null && withStacks.get(e) == stack) {
      return;
    }
    withStacks.put(e, stack);
    EventSettings settings = stream.enable(e.jfrName);
    if (e == SourceEvent.CPU_SAMPLE) {
      settings.withPeriod(Duration.ofNanos(samplePeriodNanos));
    } else if (e.hasDuration) {
      settings.withThreshold(Duration.ZERO);
    }
    if (stack) {
      settings.withStackTrace();
    } else {
      settings.withoutStackTrace();
    }
    if (handler == null) {
      Consumer<RecordedEvent> h = event -> guarded(e, event);
      handlers.put(e, h);
      stream.onEvent(e.jfrName, h);
    }
  }

  private void run(RecordingStream s) {
    try {
      s.start();
    } catch (Throwable t) {
      lastFailure = "stream stopped: " + t;
    }
  }

  private void closeStream() {
    if (stream != null) {
      RecordingStream s = stream;
      stream = null;
      handlers.clear();
      withStacks.clear();
      s.close();
    }
  }

  private void guarded(SourceEvent type, RecordedEvent e) {
    try {
      dispatch(type, e);
    } catch (Throwable t) {
      handlerFailures.incrementAndGet();
      lastFailure = type.jfrName + ": " + t;
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
    if (stacks[type.ordinal()]) {
      RecordedStackTrace st = e.getStackTrace();
      frames = st == null ? null : st.getFrames();
    }
    Instant end = e.getEndTime();
    long nanos = -1;
    long bytes = 0;
    for (WatchedSource s : current) {
      if (!end.isBefore(s.since) && s.matches(e, thread, frames)) {
        if (nanos < 0) {
          nanos = type.nanos(e, effectivePeriod.nanos());
          bytes = type.bytes(e);
        }
        s.add(nanos, bytes);
      }
    }
  }

  private static WatchedSource[][] empty() {
    WatchedSource[][] a = new WatchedSource[SourceEvent.values().length][];
    java.util.Arrays.fill(a, new WatchedSource[0]);
    return a;
  }
}
