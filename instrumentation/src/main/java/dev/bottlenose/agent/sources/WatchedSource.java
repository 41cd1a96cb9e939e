package dev.bottlenose.agent.sources;

import dev.bottlenose.agent.discovery.TypeNames;
import dev.bottlenose.agent.wire.SourceEntry;
import dev.bottlenose.agent.wire.SourceSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedThread;

/**
 * One watched source: an event, its filters, its owner, and cumulative totals since it was watched.
 * Only the stream thread adds to the totals; any thread may read them.
 */
public final class WatchedSource {
  final long id;
  final String owner;
  public final SourceEvent event;
  final CodeFilter code;
  final ThreadFilter thread;
  final String frameType;
  final String allocatedType;
  final ResourceFilter resource;
  final SourceSpec spec;
  public volatile long sinceMillis = System.currentTimeMillis();
  private volatile long count;
  private volatile long nanos;
  private volatile long bytes;

  WatchedSource(long id, String owner, SourceEvent event, CodeFilter code, ThreadFilter thread, String frameType,
      String allocatedType, ResourceFilter resource, SourceSpec spec) {
    this.allocatedType = allocatedType;
    this.resource = resource;
    this.id = id;
    this.owner = owner;
    this.event = event;
    this.code = code;
    this.thread = thread;
    this.frameType = frameType;
    this.spec = spec;
  }

  /**
   * The sampling period this {@code cpu_sample} or {@code alloc_sample} source asks for, or {@code fallback} when it
   * names none.
   */
  long periodNanos(long fallback) {
    return spec.periodMillis() != null ? spec.periodMillis() * 1_000_000 : fallback;
  }

  /**
   * Whether it counts everything its threads do: no code, frame type, object or allocation filter (a thread
   * filter or none). Its value is then its threads' own, which the daemon can read whole where samples miss some.
   */
  public boolean wholeThreads() {
    return code == null && frameType == null && resource == null && allocatedType == null;
  }

  /** Whether it counts everything the program does: {@link #wholeThreads()} and no thread filter either. */
  public boolean wholeProgram() {
    return wholeThreads() && thread == null;
  }

  /** Whether its thread filter, if any, takes {@code t}. */
  public boolean matchesThread(RecordedThread t) {
    return thread == null || thread.matches(t);
  }

  public boolean needsStack() {
    return event.code == SourceEvent.Code.STACK && (code != null || frameType != null);
  }

  /** Whether the event matches every filter; {@code frames} is null when no source of its type needs stacks. */
  public boolean matches(RecordedEvent e, RecordedThread t, List<RecordedFrame> frames) {
    if (!matchesBesidesStack(e, t)) {
      return false;
    }
    if (event.code == SourceEvent.Code.METHOD) {
      return code == null || code.matches((RecordedMethod) e.getValue("method"));
    }
    if (event.code == SourceEvent.Code.LOADER) {
      return code == null || code.matchesClass(SourceEvent.chargedClass(e));
    }
    if (code == null && frameType == null) {
      return true;
    }
    return frames != null && matchesStack(frames);
  }

  /** Whether the event matches the thread, resource and allocated-type filters (every filter but the code's). */
  public boolean matchesBesidesStack(RecordedEvent e, RecordedThread t) {
    if (thread != null && !thread.matches(t) || resource != null && !resource.matches(event, e)) {
      return false;
    }
    return allocatedType == null || allocatedType.equals(allocatedType(e));
  }

  /**
   * For a source that {@link #needsStack}, whether an event's {@code frames} match its code and frame-type filters:
   * the same answer for the same stack, which a reader may keep.
   */
  public boolean matchesStack(List<RecordedFrame> frames) {
    RecordedFrame frame = matchedFrame(frames);
    return frame != null && (frameType == null || frameType.equals(frame.getType()));
  }

  /** The frame of {@code frames} its code filter picks (the top one without a filter); null when none. */
  public RecordedFrame matchedFrame(List<RecordedFrame> frames) {
    return code == null ? (frames.isEmpty() ? null : frames.get(0)) : code.match(frames);
  }

  /** Whether it counts only frames running in the interpreter (a {@code cpu_sample} of form {@code interpreted}). */
  public boolean countsInterpreted() {
    return SourceRules.INTERPRETED_FRAME.equals(frameType);
  }

  private static String allocatedType(RecordedEvent e) {
    RecordedClass c = e.getClass("objectClass");
    return c == null ? null : TypeNames.javaName(c.getName());
  }

  public void add(long n, long b) {
    add(1, n, b);
  }

  public void add(long events, long n, long b) {
    count = count + events;
    nanos = nanos + n;
    bytes = bytes + b;
  }

  public Map<String, Object> totals(long flushedAtMillis) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("sourceId", id);
    m.put("count", count);
    m.put("nanos", nanos);
    m.put("bytes", bytes);
    m.put("throughMillis", Math.max(sinceMillis, flushedAtMillis));
    return m;
  }

  SourceEntry describe() {
    return new SourceEntry(id, spec, owner, sinceMillis);
  }
}
