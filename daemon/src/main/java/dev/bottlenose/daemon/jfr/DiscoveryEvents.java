package dev.bottlenose.daemon.jfr;

import dev.bottlenose.agent.wire.Jfr;
import dev.bottlenose.agent.discovery.TypeNames;
import dev.bottlenose.agent.discovery.VirtualThreads;
import dev.bottlenose.agent.discovery.DiscoverySettings;
import dev.bottlenose.agent.sources.ToolCode;
import dev.bottlenose.agent.sources.SourceEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * The JFR events discovery learns from. The agent turns them on ({@link DiscoverySettings#settings()}: stack
 * traces only where an event must be attributed to code (slow I/O, contended monitors, monitor waits and parks,
 * samples), slow-only thresholds on I/O and contention to keep the rate low); the daemon reads them from the
 * target's repository with this class, feeds the stacks and compiled methods to its {@link CallGraphs}, and sends
 * the rest to the agent as a digest (PROTOCOL.md, {@code jfr}), where {@code agent.discovery.JfrDigest} puts them
 * into the resource tree. Events of the agent's own threads and of JFR's are dropped.
 */
public final class DiscoveryEvents {
  private final CallGraph callGraph;
  private final CallGraph waitGraph;
  private final CallGraph ioGraph;
  private final CallGraph syncGraph;
  private final CallGraph jitGraph;
  private final CallGraph allocGraph;
  private final CallGraph loadGraph;
  private final LongRunningFrames longRunning;
  private final java.util.function.LongUnaryOperator threadCpu;
  /** Per OS thread in a native read, write or sync: its CPU time at its last such sample. */
  private final Map<Long, Long> ioCpu = new java.util.HashMap<>();
  /** Per OS thread, the stacks of its I/O samples held while it has not moved ({@link #nativeSample}). */
  private final Map<Long, java.util.ArrayDeque<List<RecordedFrame>>> heldIo = new java.util.HashMap<>();
  static final int MAX_HELD_STACKS = 20;
  /** How often threads that have ended are dropped from {@link #ioCpu} and {@link #heldIo}. */
  static final long PRUNE_MILLIS = 30_000;
  private long prunedAtMillis;
  private final Map<String, Consumer<RecordedEvent>> handlers = new LinkedHashMap<>();
  /** Read and counted on the reading thread, adjusted as each flush is drained. */
  private final ContentionThresholds thresholds = new ContentionThresholds();
  private final PerFlush<RecordedThread, String> threadNames = new PerFlush<>(RecordedThread::getJavaName);
  /** A class's Java name, for the blockers of parks and the types of allocation samples. */
  private final PerFlush<RecordedClass, String> classNames = new PerFlush<>(c -> TypeNames.javaName(c.getName()));
  /** A method's class and name, as an allocation sample's tuple names its top frame. */
  private final PerFlush<RecordedMethod, String> methodNames = new PerFlush<>(m -> m.getType().getName() + "." + m.getName());
  /** Whether the digest has carried the thresholds as they are now. */
  private boolean thresholdsSent;
  private final Map<String, List<List<?>>> digest = new LinkedHashMap<>();
  /**
   * Contended monitor entries, parks, allocation samples and compilations of the digest, summed per tuple of
   * names: a contended lock parks its waiters a thousand times a second, and a tuple per park made the agent's
   * channel thread read and apply them for 1.6 ms a flush; an allocating program's samples (150 to 500 a second)
   * and the recompiling a search's probes cause (80 a second) made the digest 20 to 35 KB a second into the
   * target. Each goes out as one tuple with its number (nanoseconds, bytes) at its kind's place ({@link
   * #NUMBER_AT}) and its count last.
   */
  private final Map<List<Object>, long[]> summed = new LinkedHashMap<>();
  /** Where a summed kind's number goes in its tuple: after the first name, or where the agent reads it. */
  private static final Map<String, Integer> NUMBER_AT = Map.of(Jfr.MONITORS, 1, Jfr.LOCKS, 1, Jfr.ALLOCATIONS, 2,
      Jfr.COMPILATIONS, 2);
  private long failures;
  /** Written by the reading thread alone. */
  private volatile long agentThreadEvents;
  private String lastFailure = "";
  /**
   * Which compilations are the tool's ({@code SourceCounter#isToolsCompilation}): left out of the {@code jit} graph,
   * where the search looks for the program's compiling, but still listed with their times, which price a probe's
   * recompiling (after an attach to JDK 17 nearly every hot method is compiled again, and listed, that way).
   */
  private final Predicate<RecordedEvent> toolsCompilation;
  private final JfrClock clock;

  /**
   * Execution samples go to the {@code cpu} graph; the stacks of slow reads and writes (files and sockets, at
   * least {@link #DiscoverySettings.IO_THRESHOLD}) and of native-method samples in a read, write or sync to
   * {@code io}; those of contended monitor entries and parks on a lock (at least
   * {@link #DiscoverySettings.CONTENTION_THRESHOLD}) to {@code sync}; the stacks of every wait recorded (those, sleeps
   * and {@code Object.wait}s of at least {@link DiscoverySettings#WAIT_THRESHOLD}, and every park discovery records)
   * to {@code wait}, each weighing the microseconds it waited; each compiled method to {@code jit}; the
   * stacks of allocation samples to {@code alloc}; each class a thread of the program defines to {@code load}.
   * Execution samples also tell {@code longRunning} which methods each thread has been running. The compilations
   * {@code toolsCompilation} names are left out of {@code jit}.
   */
  public DiscoveryEvents(CallGraphs graphs, LongRunningFrames longRunning,
      java.util.function.LongUnaryOperator threadCpu, Predicate<RecordedEvent> toolsCompilation) {
    this(graphs, longRunning, threadCpu, toolsCompilation, new JfrClock());
  }

  /**
   * As {@link #DiscoveryEvents(CallGraphs, LongRunningFrames, java.util.function.LongUnaryOperator, Predicate)},
   * reading the events' times on {@code clock}.
   */
  public DiscoveryEvents(CallGraphs graphs, LongRunningFrames longRunning,
      java.util.function.LongUnaryOperator threadCpu, Predicate<RecordedEvent> toolsCompilation, JfrClock clock) {
    this.clock = clock;
    this.longRunning = longRunning;
    this.toolsCompilation = toolsCompilation;
    this.threadCpu = threadCpu;
    this.callGraph = graphs.get(CallGraphs.CPU);
    this.waitGraph = graphs.get(CallGraphs.WAIT);
    this.ioGraph = graphs.get(CallGraphs.IO);
    this.syncGraph = graphs.get(CallGraphs.SYNC);
    this.jitGraph = graphs.get(CallGraphs.JIT);
    this.allocGraph = graphs.get(CallGraphs.ALLOC);
    this.loadGraph = graphs.get(CallGraphs.LOAD);
    handlers.put("jdk.JavaMonitorEnter", ofApplication(contention(waited(syncGraph, this::monitorEnter))));
    for (String wait : DiscoverySettings.WAIT_EVENTS) {
      handlers.put(wait, ofApplication(atLeast(DiscoverySettings.WAIT_THRESHOLD, waited(null, e -> { }))));
    }
    handlers.put("jdk.ThreadPark", ofApplication(contention(this::park)));
    handlers.put(DiscoverySettings.ALLOCATION_SAMPLE, ofApplication(this::allocation));
    handlers.put("jdk.FileRead", ofApplication(atLeast(DiscoverySettings.IO_THRESHOLD, waited(ioGraph,
        e -> add(Jfr.FILES, e.getString("path"), false, e.getLong("bytesRead"), nanos(e))))));
    handlers.put("jdk.FileWrite", ofApplication(atLeast(DiscoverySettings.IO_THRESHOLD, waited(ioGraph,
        e -> add(Jfr.FILES, e.getString("path"), true, e.getLong("bytesWritten"), nanos(e))))));
    handlers.put("jdk.SocketRead", ofApplication(atLeast(DiscoverySettings.IO_THRESHOLD, waited(ioGraph,
        e -> add(Jfr.SOCKETS, hostPort(e), false, e.getLong("bytesRead"), nanos(e))))));
    handlers.put("jdk.SocketWrite", ofApplication(atLeast(DiscoverySettings.IO_THRESHOLD, waited(ioGraph,
        e -> add(Jfr.SOCKETS, hostPort(e), true, e.getLong("bytesWritten"), nanos(e))))));
    handlers.put("jdk.GarbageCollection",
        e -> add(Jfr.GC, e.getString("name"), e.getDuration("sumOfPauses").toNanos()));
    handlers.put("jdk.Compilation", this::compilation);
    handlers.put(DiscoverySettings.CLASS_DEFINE, ofApplication(this::classDefined));
    handlers.put("jdk.ExecuteVMOperation",
        e -> add(Jfr.VM_OPERATIONS, e.getString("operation"), e.getBoolean("safepoint"), nanos(e)));
    handlers.put("jdk.Deoptimization", e -> add(Jfr.DEOPTIMIZATIONS, String.valueOf(e.getString("reason"))));
    handlers.put("jdk.ExecutionSample", this::executionSample);
    handlers.put(DiscoverySettings.NATIVE_SAMPLE, this::nativeSample);
    handlers.put(DiscoverySettings.PINNED, this::pinned);
  }

  /** Per event type discovery turns on, the shortest event it records (0: all), from its settings. */
  private static final Map<String, Long> RECORDED_FROM = DiscoverySettings.recordedFrom(DiscoverySettings.settings());

  /**
   * Whether discovery's own settings would have had JFR record {@code e}: its type is one of discovery's and it
   * lasted at least discovery's threshold (a contention event's as it is now, {@link ContentionThresholds}). An
   * event that fails this was recorded for a watched source alone (a contended monitor entry shorter than 0.2 ms, a
   * socket read shorter than 10 ms), and its commit, stack walk included, is what the source costs the thread that
   * waited.
   */
  public boolean recordedAnyway(RecordedEvent e) {
    String type = e.getEventType().getName();
    long contention = thresholds.of(type);
    Long shortest = contention > 0 ? Long.valueOf(contention) : RECORDED_FROM.get(type);
    return shortest != null && (shortest == 0 || e.getDuration().toNanos() >= shortest);
  }

  /** The thresholds discovery's contention events are recorded from now, in nanoseconds per event name. */
  public Map<String, Long> contentionThresholds() {
    return thresholds.all();
  }

  /** The reader has handled a flush: the threads its events name are looked at again from the next one. */
  public void flushedStream() {
    threadNames.clear();
    classNames.clear();
    methodNames.clear();
  }

  /** The event names this class handles. */
  public java.util.Set<String> eventNames() {
    return handlers.keySet();
  }

  /** Takes one event; anything a handler throws is counted, never thrown on. */
  public void accept(RecordedEvent e) {
    Consumer<RecordedEvent> h = handlers.get(e.getEventType().getName());
    if (h == null) {
      return;
    }
    try {
      h.accept(e);
    } catch (RuntimeException ex) {
      failures++;
      lastFailure = e.getEventType().getName() + ": " + ex;
    }
  }

  /**
   * The facts gathered since the last call, for the agent's {@code jfr} request, with the contention thresholds
   * ({@link ContentionThresholds}, adjusted here); null when there are no facts and the agent has the thresholds.
   */
  public synchronized Jfr drain() {
    long now = System.currentTimeMillis();
    if (threadCpu != null && now - prunedAtMillis >= PRUNE_MILLIS) {
      prunedAtMillis = now;
      dropEnded(ioCpu, heldIo, threadCpu);
    }
    for (Map.Entry<List<Object>, long[]> e : summed.entrySet()) {
      List<Object> key = e.getKey();
      List<Object> tuple = new ArrayList<>(key.subList(1, key.size()));
      tuple.add(NUMBER_AT.get((String) key.get(0)), e.getValue()[0]);
      tuple.add(e.getValue()[1]);
      digest.computeIfAbsent((String) key.get(0), k -> new ArrayList<>()).add(tuple);
    }
    summed.clear();
    if (thresholds.adjust(now)) {
      thresholdsSent = false;
    }
    if (digest.isEmpty() && thresholdsSent) {
      return null;
    }
    Jfr out = new Jfr(digest, thresholds.all());
    thresholdsSent = true;
    digest.clear();
    return out;
  }

  public long failures() {
    return failures;
  }

  public String lastFailure() {
    return lastFailure;
  }

  private synchronized void add(String kind, Object... fields) {
    List<Object> tuple = new ArrayList<>(fields.length);
    for (Object f : fields) {
      tuple.add(f == null ? "" : f);
    }
    digest.computeIfAbsent(kind, k -> new ArrayList<>()).add(tuple);
  }

  /**
   * Adds {@code number} and one event to the summed tuple of {@code kind} with {@code names}: it is written as
   * the names with the number at {@link #NUMBER_AT}, and the count last.
   */
  private synchronized void addSummed(String kind, long number, Object... names) {
    List<Object> key = new ArrayList<>(names.length + 1);
    key.add(kind);
    for (Object n : names) {
      key.add(n == null ? "" : n);
    }
    long[] t = summed.computeIfAbsent(key, k -> new long[2]);
    t[0] += number;
    t[1]++;
  }

  /**
   * Drops the threads whose CPU time can no longer be read (they ended) from {@code cpuByTid}, and what
   * {@code heldByTid} holds for a thread no longer in it: a server that starts a thread per request would
   * otherwise leave an entry, and up to {@value #MAX_HELD_STACKS} stacks, for each thread that ever read.
   */
  static void dropEnded(Map<Long, Long> cpuByTid, Map<Long, ?> heldByTid, java.util.function.LongUnaryOperator cpu) {
    cpuByTid.keySet().removeIf(tid -> cpu.applyAsLong(tid) < 0);
    heldByTid.keySet().retainAll(cpuByTid.keySet());
  }

  /** The handler, for events of application threads only: the agent's own threads and JFR's are not the program. */
  private Consumer<RecordedEvent> ofApplication(Consumer<RecordedEvent> handler) {
    return e -> {
      RecordedThread t = e.getThread();
      if (ofTheProgram(t == null ? null : threadNames.get(t))) {
        handler.accept(e);
      }
    };
  }

  /** False for the tool's threads, counting those of the agent ({@link #agentThreadEvents}). */
  private boolean ofTheProgram(String threadName) {
    if (ToolCode.isAgentThread(threadName)) {
      agentThreadEvents++;
    }
    return !ToolCode.isToolThread(threadName);
  }

  /**
   * Events of the agent's own threads that reached the reader: none while the agent has excluded its threads
   * from JFR (its {@code /VM} attribute {@code jfrToolThreads} says whether it could).
   */
  public long agentThreadEvents() {
    return agentThreadEvents;
  }

  /**
   * The handler, for a contention event of at least discovery's lowest threshold ({@link
   * DiscoverySettings#CONTENTION_THRESHOLD}); each is counted against the rate {@link ContentionThresholds} holds.
   * Events between the lowest and the current threshold come only while a watched source asks for them, and are
   * taken too: they cost discovery nothing.
   */
  private Consumer<RecordedEvent> contention(Consumer<RecordedEvent> handler) {
    Consumer<RecordedEvent> atLeastLowest = atLeast(DiscoverySettings.CONTENTION_THRESHOLD, handler);
    return e -> {
      thresholds.recorded(e.getEventType().getName(), nanos(e));
      atLeastLowest.accept(e);
    };
  }

  /**
   * The handler, for events of at least {@code threshold}: the watched sources lower the recording's threshold
   * for the same event type, and the shorter events are not discovery's.
   */
  private static Consumer<RecordedEvent> atLeast(Duration threshold, Consumer<RecordedEvent> handler) {
    long min = threshold.toNanos();
    return e -> {
      if (e.getDuration().toNanos() >= min) {
        handler.accept(e);
      }
    };
  }

  /**
   * The handler, for a wait: the event's stack (if recorded) counted once into {@code graph} (null: none) and into
   * the wait graph weighing the microseconds it waited.
   */
  private Consumer<RecordedEvent> waited(CallGraph graph, Consumer<RecordedEvent> handler) {
    return e -> {
      handler.accept(e);
      RecordedStackTrace stack = e.getStackTrace();
      if (stack != null) {
        if (graph != null) {
          graph.sampled(stack);
        }
        waitGraph.sampled(stack, micros(e));
      }
    };
  }

  private static long nanos(RecordedEvent e) {
    return e.getDuration().toNanos();
  }

  private static long micros(RecordedEvent e) {
    return e.getDuration().toNanos() / 1000;
  }

  private static String hostPort(RecordedEvent e) {
    String host = e.getString("address");
    return (host == null || host.isEmpty() ? e.getString("host") : host) + ":" + e.getInt("port");
  }

  private void monitorEnter(RecordedEvent e) {
    RecordedClass monitorClass = e.getClass("monitorClass");
    RecordedMethod top = topMethod(e.getStackTrace());
    addSummed(Jfr.MONITORS, nanos(e), monitorClass == null ? "" : TypeNames.javaName(monitorClass.getName()),
        top == null ? "" : top.getType().getName(), top == null ? "" : top.getName(),
        top == null ? "" : top.getDescriptor());
  }

  private void pinned(RecordedEvent e) {
    if (!VirtualThreads.SUPPORTED) {
      return;
    }
    RecordedMethod top = topMethod(e.getStackTrace());
    add(Jfr.PINNED, nanos(e), top == null ? "" : top.getType().getName() + "." + top.getName());
  }

  /** Every park names its blocker's class as a lock; only a park on a lock is contention for the sync graph. */
  private void park(RecordedEvent e) {
    RecordedClass parked = e.getClass("parkedClass");
    String blocker = parked == null ? null : classNames.get(parked);
    if (blocker != null) {
      addSummed(Jfr.LOCKS, nanos(e), blocker);
    }
    RecordedStackTrace stack = e.getStackTrace();
    if (stack != null) {
      waitGraph.sampled(stack, micros(e));
      if (SourceEvent.LOCK_PARK.counts(e, classNames::get)) {
        syncGraph.sampled(stack);
      }
    }
  }

  private void allocation(RecordedEvent e) {
    RecordedClass type = e.getClass("objectClass");
    RecordedStackTrace stack = e.getStackTrace();
    RecordedMethod top = topMethod(stack);
    if (type != null && top != null) {
      addSummed(Jfr.ALLOCATIONS, e.getLong("weight"), classNames.get(type), methodNames.get(top));
    }
    if (stack != null) {
      allocGraph.sampled(stack);
    }
  }

  /** A sample of an application thread (not the agent's, not JFR's own) goes into the call graph. */
  private void executionSample(RecordedEvent e) {
    RecordedThread t = e.getThread("sampledThread");
    String name = t == null ? null : threadNames.get(t);
    RecordedStackTrace stack = e.getStackTrace();
    if (name != null && ofTheProgram(name) && stack != null) {
      List<String[]> frames = callGraph.sampled(stack);
      longRunning.sampled(t.getJavaThreadId(), t.getOSThreadId(), name, clock.millis(e.getStartTime()), frames,
          stack.isTruncated());
    }
  }

  /**
   * A sample of a thread in a native read, write or sync goes into the {@code io} graph beside the slow I/O
   * events: the only trace of I/O that no event reports, or whose events are each shorter than discovery's
   * threshold. As the {@code io_sample} sources do (IoSamples), the samples of a thread that has used no CPU
   * since its previous one are held until it moves on, and the last {@value #MAX_HELD_STACKS} go in then: a
   * console reader blocked for the whole run put its stack into most of the graph and made the code doing real
   * I/O look too small a share to refine into.
   */
  private void nativeSample(RecordedEvent e) {
    RecordedThread t = e.getThread("sampledThread");
    RecordedStackTrace stack = e.getStackTrace();
    if (t == null || !ofTheProgram(threadNames.get(t)) || stack == null || !SourceEvent.IO_SAMPLE.counts(e)) {
      return;
    }
    long tid = t.getOSThreadId();
    long cpu = threadCpu == null ? -1 : threadCpu.applyAsLong(tid);
    Long before = ioCpu.put(tid, cpu);
    if (cpu >= 0 && (before == null || before < 0 || cpu <= before)) {
      java.util.ArrayDeque<List<RecordedFrame>> held = heldIo.computeIfAbsent(tid, k -> new java.util.ArrayDeque<>());
      if (held.size() == MAX_HELD_STACKS) {
        held.removeFirst();
      }
      held.addLast(stack.getFrames());
      return;
    }
    java.util.ArrayDeque<List<RecordedFrame>> held = heldIo.remove(tid);
    if (held != null) {
      held.forEach(ioGraph::sampled);
    }
    ioGraph.sampled(stack);
  }

  private void compilation(RecordedEvent e) {
    RecordedMethod m = e.getValue("method");
    if (m != null) {
      if (!toolsCompilation.test(e)) {
        jitGraph.counted(m);
      }
      addSummed(Jfr.COMPILATIONS, nanos(e), e.getInt("compileLevel"), m.getType().getName() + "." + m.getName()
          + m.getDescriptor());
    }
  }

  /** A class defined, counted at the class it is charged to ({@link SourceEvent#chargedClass}). */
  private void classDefined(RecordedEvent e) {
    loadGraph.countedClass(SourceEvent.chargedClass(e));
  }

  private static RecordedMethod topMethod(RecordedStackTrace stack) {
    if (stack == null) {
      return null;
    }
    for (RecordedFrame f : stack.getFrames()) {
      if (f.isJavaFrame() && f.getMethod() != null) {
        return f.getMethod();
      }
    }
    return null;
  }
}
