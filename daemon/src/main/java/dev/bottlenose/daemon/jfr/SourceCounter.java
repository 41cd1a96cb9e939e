package dev.bottlenose.daemon.jfr;

import dev.bottlenose.agent.discovery.TypeNames;
import dev.bottlenose.agent.sources.SourceEvent;
import dev.bottlenose.agent.sources.SourceRules;
import dev.bottlenose.agent.sources.ToolCode;
import dev.bottlenose.agent.sources.WatchedSource;
import dev.bottlenose.agent.wire.SourceSpec;
import dev.bottlenose.daemon.attach.CompiledBeforeAttach;
import dev.bottlenose.model.CodePaths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiPredicate;
import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * Counts one daemon's watched sources from the events of the target's recording, read in the daemon (never in
 * the target): each source the agent accepted is added here with the id the agent gave it, and counts the
 * matching events that ended after it was added. Events of the agent's own {@code bottlenose-*} threads are
 * not the program's and are skipped, and so are those of JFR's threads and of the JDK's housekeeping
 * threads ({@link #HOUSEKEEPING}: reference handling, finalization, the common cleaner, signals, attach),
 * which wait by design: the common cleaner's {@code Object.wait} in its reference queue made
 * {@code sync_wait} true at 0.69 on a CPU-bound program with no lock at all (the agent's own file reads
 * start that thread). Compilations and deoptimisations of Bottlenose's own methods ({@link ToolCode}) are
 * skipped too. Handlers never throw: failures are counted.
 *
 * <p>Execution samples stand for the CPU time their thread really used. JFR's sampler loses samples (a stack it
 * cannot walk, as in a megamorphic call's dispatch stub; more than five threads in Java code at once) and takes
 * some of threads the OS has preempted; so where the thread's CPU time can be read ({@code threadCpu}, by OS
 * thread id), the samples of each thread between two flushes share that thread's CPU time over the same
 * stretch: each stands for the period times (CPU time / (samples × period)), that ratio capped at
 * {@value #MAX_SCALE}. While a {@code cpu_sample} source is watched, every live thread's CPU time is read
 * at each flush (and a thread's last known one kept), so a thread that was idle, or whose samples were all
 * lost, is still scaled when its samples come back: a test thread spinning after an idle stretch had 77%
 * of its CPU time counted when only the threads sampled in the stretch before were read. A thread first
 * seen in this stretch, or one whose CPU time cannot be read, counts one period per sample. A source without a
 * code filter (the whole program, a thread) counts its threads' CPU time over the stretch whole, uncapped and
 * whether they were sampled or not ({@link #settleWholeThreads}).
 *
 * <p>{@code class_load} sources count the JVM's own class-loading time where it can be read, shared among the
 * classes defined ({@link #classLoadingTime}).
 *
 * <p>Native-method samples ({@code io_sample}) stand for the time of one turn of JFR's native sampler, which
 * takes one thread in native code per period, in turn ({@link NativeTurns}); a thread's are held while it is
 * blocked in a read that has not returned ({@link IoSamples}).
 */
public final class SourceCounter {
  /** JFR's own Java code, which runs because the agent records. */
  private static final String RECORDING_CODE = "jdk.jfr.";
  private static final String COMPILATION = SourceEvent.JIT_COMPILE.jfrName;
  private final AtomicLong toolJitNanos = new AtomicLong();
  private final AtomicLong jitNanos = new AtomicLong();
  /**
   * The compile id last asked about and the answer: discovery, the tool's JIT sum and a source watching compilations
   * all ask of the same event, one after the other on the reader's thread (by id: the stream reuses its event
   * objects).
   */
  private long lastCompileId = -1;
  private boolean lastCompilationTools;
  /** Whether a class had the tool's probes at a time ({@link #changedByTool}); null: none known. */
  private volatile BiPredicate<String, Long> changedByTool;
  /** What the JIT had compiled before the attach ({@link #compiledBeforeAttach}). */
  private volatile CompiledBeforeAttach compiledBeforeAttach = CompiledBeforeAttach.NONE;
  /** The JDK's own threads that wait for work by design, by name; and those of its innocuous thread group. */
  static final Set<String> HOUSEKEEPING = Set.of("Reference Handler", "Finalizer", "Common-Cleaner",
      "Signal Dispatcher", "Attach Listener");
  private static final String INNOCUOUS_GROUP = "InnocuousThreadGroup";
  static final double MAX_SCALE = 10.0;
  /** Threads whose last CPU time is kept between flushes; past that, only the last stretch's. */
  static final int MAX_THREADS_KEPT = 10_000;

  private final Map<Long, WatchedSource> sources = new LinkedHashMap<>();
  /** The source events of each JFR event type (a park is both {@code park} and, on a lock, {@code lock_park}). */
  private final Map<String, SourceEvent[]> byName = new HashMap<>();
  private volatile WatchedSource[][] byEvent = empty();
  private volatile long samplePeriodNanos;
  /** The period the agent was configured with, which its recording asks native-method samples at. */
  private final long configuredPeriodNanos;
  private volatile long flushedAtMillis;
  private volatile long failures;
  private volatile String lastFailure = "";
  private final LongUnaryOperator threadCpu;
  private final Supplier<Collection<Long>> liveThreads;
  private final Map<Long, Long> stretchSamples = new HashMap<>();
  private final Map<WatchedSource, Map<Long, Long>> stretchMatches = new HashMap<>();
  private Map<Long, Long> cpuAtLastFlush = new HashMap<>();
  /** The program's threads the events have named, by OS id: whose CPU time a whole-thread source counts. */
  private final Map<Long, RecordedThread> programThreads = new HashMap<>();
  /** Of each thread the events name, worked out once a flush: whether it is not the program's, and its OS id. */
  private final PerFlush<RecordedThread, ThreadFacts> threadFacts =
      new PerFlush<>(t -> new ThreadFacts(notTheProgram(t), t.getOSThreadId()));
  /** A class's Java name, for the blockers of parks ({@link SourceEvent#LOCK_PARK} counts those on a lock). */
  private final PerFlush<jdk.jfr.consumer.RecordedClass, String> classNames =
      new PerFlush<>(c -> TypeNames.javaName(c.getName()));
  /**
   * Per source with a code or frame filter, whether a stack matches it: the events of a flush carry the same few
   * stacks again and again, and an inclusive filter looks at every frame.
   */
  private final Map<WatchedSource, PerFlush<RecordedStackTrace, Boolean>> stackMatches = new HashMap<>();
  /** JFR's event for each class defined, which {@code class_load} sources count when the JVM's own total is known. */
  static final String CLASS_DEFINE = dev.bottlenose.agent.sources.WatchedSources.CLASS_DEFINE;
  private LongSupplier classLoading = () -> -1;
  private volatile boolean classLoadingKnown;
  private long classLoadingAtLastFlush = -1;
  /** Per event type that shares the JVM's loading time ({@link #DEFINES}), the classes defined in the stretch. */
  private final long[] stretchDefines = new long[SourceEvent.values().length];
  /** The sources that share the JVM's class-loading time among the classes defined. */
  private static final List<SourceEvent> DEFINES = List.of(SourceEvent.CLASS_LOAD, SourceEvent.CLASS_DEFINE);
  private final Map<WatchedSource, Long> stretchDefineMatches = new HashMap<>();
  /** Per {@code class_load} source, the stretch's {@code jdk.ClassLoad} events: count and nanoseconds. */
  private final Map<WatchedSource, long[]> stretchLoads = new HashMap<>();
  private final NativeTurns nativeTurns = new NativeTurns();
  private final IoSamples ioSamples;
  private final JfrClock clock;

  /** {@code threadCpu}: a thread's CPU time in ns by OS thread id, -1 if unknown; null to count periods only. */
  public SourceCounter(long samplePeriodNanos, LongUnaryOperator threadCpu) {
    this(samplePeriodNanos, threadCpu, List::of);
  }

  /**
   * As {@link #SourceCounter(long, LongUnaryOperator)}, with the OS ids of the target's live threads: while a
   * {@code cpu_sample} source is watched, every live thread's CPU time is read at each flush, so a thread
   * whose first samples come after an idle stretch (a request thread that was waiting) is scaled too.
   */
  public SourceCounter(long samplePeriodNanos, LongUnaryOperator threadCpu, Supplier<Collection<Long>> liveThreads) {
    this(samplePeriodNanos, threadCpu, liveThreads, new JfrClock());
  }

  /** As {@link #SourceCounter(long, LongUnaryOperator, Supplier)}, reading the events' times on {@code clock}. */
  public SourceCounter(long samplePeriodNanos, LongUnaryOperator threadCpu, Supplier<Collection<Long>> liveThreads,
      JfrClock clock) {
    this.clock = clock;
    this.samplePeriodNanos = samplePeriodNanos;
    this.configuredPeriodNanos = samplePeriodNanos;
    this.threadCpu = threadCpu;
    this.liveThreads = liveThreads;
    this.ioSamples = new IoSamples(threadCpu);
    for (SourceEvent e : SourceEvent.values()) {
      byName.merge(e.jfrName, new SourceEvent[] {e}, (a, b) -> {
        SourceEvent[] both = java.util.Arrays.copyOf(a, a.length + 1);
        both[a.length] = b[0];
        return both;
      });
    }
    byName.put(CLASS_DEFINE, new SourceEvent[] {SourceEvent.CLASS_LOAD, SourceEvent.CLASS_DEFINE});
  }

  /**
   * What tells the JIT's work caused by the tool's own probes: {@code changedByTool} answers whether a class (binary
   * name) had Bottlenose's probes at a time (epoch ms) or had them taken out shortly before. Compilations and
   * deoptimisations of its methods then are the tool's wake, not the program's, and are not counted; nor are those
   * of Bottlenose's own code ({@link #isToolCode}).
   */
  public void changedByTool(BiPredicate<String, Long> changedByTool) {
    this.changedByTool = changedByTool;
  }

  /**
   * What the JIT had compiled before the attach: its compiling those methods again after the attach, which threw
   * their code away, is the attach's wake and is not counted ({@link CompiledBeforeAttach}).
   */
  public void compiledBeforeAttach(CompiledBeforeAttach compiled) {
    this.compiledBeforeAttach = compiled;
  }

  /**
   * The JVM's own total of time spent loading classes, in ns (-1 where it cannot be read): with it, a
   * {@code class_load} source counts each stretch's growth of that total, shared among the classes defined in the
   * stretch ({@code jdk.ClassDefine}, by thread and stack), instead of the durations of {@code jdk.ClassLoad}, which
   * times only the loads the VM starts itself (a class a program defines from bytes is not among them).
   */
  public void classLoadingTime(LongSupplier nanos) {
    classLoading = nanos;
    classLoadingKnown = nanos.getAsLong() >= 0;
  }

  /** The JFR event names a source can count. */
  public static Set<String> eventNames() {
    Set<String> names = new TreeSet<>();
    for (SourceEvent e : SourceEvent.values()) {
      names.add(e.jfrName);
    }
    names.add(CLASS_DEFINE);
    return names;
  }

  /** Counts the source {@code spec} (as the agent accepted it) under the agent's {@code id} from now on. */
  public void add(long id, SourceSpec spec) {
    add(id, spec, System.currentTimeMillis());
  }

  /** As {@link #add(long, SourceSpec)}, counting the events that end at or after {@code sinceMillis}. */
  public synchronized void add(long id, SourceSpec spec, long sinceMillis) {
    WatchedSource s = SourceRules.parse(spec, id, "daemon");
    s.sinceMillis = sinceMillis;
    sources.put(id, s);
    rebuild();
  }

  public synchronized void remove(long id) {
    WatchedSource gone = sources.remove(id);
    if (gone != null) {
      ioSamples.forget(gone);
      rebuild();
    }
  }

  /** The period a {@code cpu_sample} stands for from now on (the agent says what JFR really samples at). */
  public void samplePeriod(long nanos) {
    if (nanos > 0) {
      samplePeriodNanos = nanos;
    }
  }

  /** Every event the stream has delivered so far ended before {@code millis}; call on the stream's thread. */
  public void flushed(long millis) {
    settleSamples(millis);
    settleDefines(millis);
    flushedAtMillis = millis;
  }

  /**
   * Adds the stretch's execution samples to their sources, each thread's weighted by its CPU time. A whole-thread
   * source ({@link WatchedSource#wholeThreads}: the whole program, a thread) counts its threads' CPU time over the
   * stretch itself, samples or not: a thread defining classes or in native code runs where JFR does not sample
   * it (a plugin host defining classes from bytes used 1.2 cores and showed 0.03 of one in samples).
   */
  private synchronized void settleSamples(long throughMillis) {
    Map<Long, Long> cpuNow = cpuAtLastFlush.size() < MAX_THREADS_KEPT ? new HashMap<>(cpuAtLastFlush) : new HashMap<>();
    Map<Long, Double> scale = new HashMap<>();
    long period = samplePeriodNanos;
    stretchSamples.forEach((tid, n) -> {
      long cpu = threadCpu.applyAsLong(tid);
      Long before = cpuAtLastFlush.get(tid);
      cpuNow.put(tid, cpu);
      boolean known = cpu >= 0 && before != null && before >= 0 && cpu >= before;
      scale.put(tid, known ? Math.min(MAX_SCALE, (cpu - before) / ((double) n * period)) : 1.0);
    });
    boolean cpuWatched = threadCpu != null && byEvent[SourceEvent.CPU_SAMPLE.ordinal()].length > 0;
    if (cpuWatched) {
      Collection<Long> live = liveThreads.get();
      for (Long tid : live) {
        if (!stretchSamples.containsKey(tid)) {
          cpuNow.put(tid, threadCpu.applyAsLong(tid));
        }
      }
      if (!live.isEmpty()) {
        programThreads.keySet().retainAll(new java.util.HashSet<>(live));
      }
      for (WatchedSource s : byEvent[SourceEvent.CPU_SAMPLE.ordinal()]) {
        if (s.wholeThreads()) {
          settleWholeThreads(s, cpuNow, throughMillis);
        }
      }
    }
    stretchMatches.forEach((s, byThread) -> {
      if (cpuWatched && s.wholeThreads()) {
        return;
      }
      long count = 0;
      double nanos = 0;
      for (Map.Entry<Long, Long> e : byThread.entrySet()) {
        count += e.getValue();
        nanos += e.getValue() * period * scale.getOrDefault(e.getKey(), 1.0);
      }
      s.add(count, Math.round(nanos), 0);
    });
    stretchSamples.clear();
    stretchMatches.clear();
    cpuAtLastFlush = cpuNow;
    if (ioSamples.pending() || nativeTurns.pending()) {
      ioSamples.settle(nativeTurns.settle(configuredPeriodNanos));
    }
  }

  /** Whether some source counts events named {@code jfrName} (a JFR event type). */
  public boolean watches(String jfrName) {
    for (SourceEvent type : byName.getOrDefault(jfrName, new SourceEvent[0])) {
      if (byEvent[type.ordinal()].length > 0) {
        return true;
      }
    }
    return false;
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

  /** Adds {@code e} to every source it matches, and a compilation in the tool's wake to {@link #toolJitNanos}. */
  public void accept(RecordedEvent e) {
    String name = e.getEventType().getName();
    if (COMPILATION.equals(name)) {
      toolsCompilation(e);
    }
    SourceEvent[] types = byName.get(name);
    if (types == null) {
      return;
    }
    String threadField = types[0].threadField;
    RecordedThread thread = threadField == null ? null : e.getThread(threadField);
    if (thread != null && threadCpu != null) {
      seenThread(thread);
    }
    for (SourceEvent type : types) {
      try {
        dispatch(type, e, type.threadField == null ? null
            : type.threadField.equals(threadField) ? thread : e.getThread(type.threadField));
      } catch (RuntimeException ex) {
        failures++;
        lastFailure = type.jfrName + ": " + ex;
      }
    }
  }

  /**
   * What the target's JIT has spent compiling on the tool's behalf since the reader's first event (the attach), ns
   * (the durations of its compilations): Bottlenose's own code and JFR's, the methods of classes the tool's probes
   * changed, and the attach's wake: the first compilation at each level of every method compiled before the attach,
   * and the JDK's methods compiled while that makes most of the JIT's work ({@link #isToolsWake}). Discovery records
   * every compilation, so this is counted whether or not a source watches them.
   */
  public long toolJitNanos() {
    return toolJitNanos.get();
  }

  private void toolsCompilation(RecordedEvent e) {
    long nanos = e.getDuration().toNanos();
    jitNanos.addAndGet(nanos);
    if (isToolsCompilation(e)) {
      toolJitNanos.addAndGet(nanos);
    }
  }

  /**
   * The durations of all the target's compilations since the reader's first event, ns: what {@link #toolJitNanos}
   * is a part of. Durations are wall time: on a busy machine a compilation lasts longer than the compiler thread's
   * CPU, so the tool's share of the JIT's CPU is {@link #toolJitNanos} over this, times the compiler threads' CPU.
   */
  public long jitNanos() {
    return jitNanos.get();
  }

  /**
   * Whether {@code e} is a compilation on the tool's behalf ({@link #toolJitNanos}): discovery leaves those out of
   * its {@code jit} graph too, so the JIT's places to look further are the program's. Asked twice of one event,
   * answers the same.
   */
  public boolean isToolsCompilation(RecordedEvent e) {
    try {
      if (!COMPILATION.equals(e.getEventType().getName())) {
        return false;
      }
      long id = number(e, "compileId");
      if (id < 0 || id != lastCompileId) {
        lastCompilationTools = isToolCode(e) || isToolsWake(e, SourceEvent.JIT_COMPILE);
        lastCompileId = id;
      }
      return lastCompilationTools;
    } catch (RuntimeException ex) {
      failures++;
      lastFailure = COMPILATION + ": " + ex;
      lastCompileId = -1;
      return false;
    }
  }

  /**
   * A compilation or deoptimisation of one of Bottlenose's own methods, or of JFR's (the recording the agent
   * started): the JIT compiling the tool's code (most of it in the first search after an attach) is the tool's
   * cost, never the program's bottleneck.
   */
  static boolean isToolCode(RecordedEvent e) {
    RecordedMethod m = e.getValue("method");
    return m != null && m.getType() != null && (ToolCode.isToolClass(m.getType().getName())
        || m.getType().getName().startsWith(RECORDING_CODE));
  }

  /**
   * A compilation or deoptimisation of a method of a class the tool's probes changed, then or just before; or the
   * JIT compiling again code the attach threw away, with the JDK's methods while that makes most of its work
   * ({@link CompiledBeforeAttach#isWake}).
   */
  private boolean isToolsWake(RecordedEvent e, SourceEvent type) {
    RecordedMethod m = e.getValue("method");
    if (m == null || m.getType() == null) {
      return false;
    }
    BiPredicate<String, Long> changed = changedByTool;
    if (changed != null && changed.test(m.getType().getName(), clock.millis(e.getStartTime()))) {
      return true;
    }
    String className = m.getType().getName();
    return type == SourceEvent.JIT_COMPILE && compiledBeforeAttach.isWake(
        CompiledBeforeAttach.method(className, m.getName(), m.getDescriptor()), CodePaths.inPlatformClass(className),
        number(e, "compileLevel"), e.hasField("isOsr") && e.getBoolean("isOsr"), number(e, "compileId"),
        clock.millis(e.getStartTime()), e.getDuration().toNanos());
  }

  /** An integer field whatever its width and sign in this JDK's events; -1 when the event has none. */
  private static int number(RecordedEvent e, String field) {
    return e.hasField(field) && e.getValue(field) instanceof Number n ? n.intValue() : -1;
  }

  /**
   * The reader has handled a flush: the threads, blocker classes and stacks its events name are looked at again from
   * the next one.
   */
  public void flushedStream() {
    threadFacts.clear();
    classNames.clear();
    stackMatches.clear();
  }

  /** The agent's threads, JFR's and the JDK's housekeeping threads. */
  static boolean notTheProgram(RecordedThread thread) {
    String name = thread.getJavaName();
    if (ToolCode.isToolThread(name) || name != null && HOUSEKEEPING.contains(name)) {
      return true;
    }
    return thread.getThreadGroup() != null && INNOCUOUS_GROUP.equals(thread.getThreadGroup().getName());
  }

  /** Counts {@code e} into the sources of {@code type}; {@code thread} is the event's thread for that type. */
  private void dispatch(SourceEvent type, RecordedEvent e, RecordedThread thread) {
    WatchedSource[] current = byEvent[type.ordinal()];
    if (current.length == 0) {
      return;
    }
    ThreadFacts facts = thread == null ? null : threadFacts.get(thread);
    if (type == SourceEvent.IO_SAMPLE && facts != null) {
      nativeTurn(facts.tid, e.getStartTime());
    }
    if (!type.counts(e, classNames::get)) {
      return;
    }
    boolean define = DEFINES.contains(type) && CLASS_DEFINE.equals(e.getEventType().getName());
    if (define && !classLoadingKnown) {
      if (type == SourceEvent.CLASS_LOAD) {
        return;
      }
      define = false;  // class_define then counts the classes, with no time
    }
    if (define) {
      defined(type);
    }
    if (facts != null && facts.notProgram || type.code == SourceEvent.Code.METHOD
        && (type == SourceEvent.JIT_COMPILE ? isToolsCompilation(e) : isToolCode(e) || isToolsWake(e, type))) {
      return;
    }
    boolean weighted = type == SourceEvent.CPU_SAMPLE && threadCpu != null && thread != null;
    if (weighted) {
      sampledThread(facts.tid);
    }
    RecordedStackTrace stack = null;
    boolean stackRead = false;
    long end = clock.millis(e.getEndTime());
    long nanos = -1;
    long bytes = 0;
    for (WatchedSource s : current) {
      if (end < s.sinceMillis) {
        continue;
      }
      boolean matched;
      if (s.needsStack()) {
        if (!stackRead) {
          stack = e.getStackTrace();
          stackRead = true;
        }
        matched = s.matchesBesidesStack(e, thread) && (stack == null ? s.matchesStack(List.of()) : matchesStack(s, stack));
      } else {
        matched = s.matches(e, thread, null);
      }
      if (matched && s.countsInterpreted() && stack != null && interpretedInWake(s, stack, end)) {
        continue;
      }
      if (matched) {
        if (weighted) {
          matchedSample(s, facts.tid);
          continue;
        }
        if (define) {
          matchedDefine(s);
          continue;
        }
        if (type == SourceEvent.CLASS_LOAD && classLoadingKnown) {
          matchedLoad(s, type.nanos(e, samplePeriodNanos));
          continue;
        }
        if (type == SourceEvent.IO_SAMPLE) {
          matchedIoSample(s, facts == null ? -1 : facts.tid);
          continue;
        }
        if (nanos < 0) {
          nanos = type.nanos(e, samplePeriodNanos);
          bytes = type.bytes(e);
        }
        s.add(nanos, bytes);
      }
    }
  }

  private synchronized void sampledThread(long tid) {
    stretchSamples.merge(tid, 1L, Long::sum);
  }

  /**
   * Whether the interpreted frame {@code s} counted in this sample runs interpreted in the attach's wake ({@link
   * CompiledBeforeAttach#interpretedInWake}): the tool's cost, not the program's interpretation.
   */
  private boolean interpretedInWake(WatchedSource s, RecordedStackTrace stack, long millis) {
    RecordedFrame frame = s.matchedFrame(stack.getFrames());
    RecordedMethod m = frame == null ? null : frame.getMethod();
    if (m == null || m.getType() == null) {
      return false;
    }
    String className = m.getType().getName();
    return compiledBeforeAttach.interpretedInWake(CompiledBeforeAttach.method(className, m.getName(), m.getDescriptor()),
        CodePaths.inPlatformClass(className), millis);
  }

  /** Whether {@code stack} matches the code and frame filters of {@code s} (which needs stacks), once a flush. */
  private boolean matchesStack(WatchedSource s, RecordedStackTrace stack) {
    return stackMatches.computeIfAbsent(s, k -> new PerFlush<>(st -> k.matchesStack(st.getFrames()))).get(stack);
  }

  /** What the reader needs of a thread. */
  private record ThreadFacts(boolean notProgram, long tid) {}

  /**
   * Notes a program thread any event names, watched or not: a thread that runs almost only inside the VM (defining
   * classes) is seldom in an execution sample, but its allocation samples and class definitions name it.
   */
  private synchronized void seenThread(RecordedThread thread) {
    ThreadFacts facts = threadFacts.get(thread);
    if (facts.notProgram) {
      return;
    }
    long tid = facts.tid;
    if (programThreads.size() < MAX_THREADS_KEPT || programThreads.containsKey(tid)) {
      programThreads.put(tid, thread);
    }
  }

  /**
   * A whole-thread source's stretch: the CPU time its threads (those the events have named, its thread filter
   * taking them) used between the last flush and this one, each sample counted; a thread whose CPU time is not
   * known for the stretch counts one period per sample.
   */
  private void settleWholeThreads(WatchedSource s, Map<Long, Long> cpuNow, long throughMillis) {
    Map<Long, Long> samples = stretchMatches.getOrDefault(s, Map.of());
    java.util.Set<Long> threads = new java.util.HashSet<>(samples.keySet());
    programThreads.forEach((tid, t) -> {
      if (s.matchesThread(t)) {
        threads.add(tid);
      }
    });
    long count = 0;
    double nanos = 0;
    for (long tid : threads) {
      long n = samples.getOrDefault(tid, 0L);
      count += n;
      Long before = cpuAtLastFlush.get(tid);
      Long now = cpuNow.get(tid);
      nanos += before != null && now != null && before >= 0 && now >= before ? now - before : n * samplePeriodNanos;
    }
    s.add(count, Math.round(nanos * sinceShare(s, throughMillis)), 0);
  }

  /**
   * The share of the stretch that ends at {@code throughMillis} that came after {@code s} was added: what it counts
   * of a total read for the whole stretch.
   */
  private double sinceShare(WatchedSource s, long throughMillis) {
    long from = flushedAtMillis;
    if (from <= 0 || throughMillis <= from || s.sinceMillis <= from) {
      return 1.0;
    }
    return Math.max(0, throughMillis - s.sinceMillis) / (double) (throughMillis - from);
  }

  /** A class defined in the stretch: counted against every source it matches, to share the stretch's load time. */
  private synchronized void matchedDefine(WatchedSource s) {
    stretchDefineMatches.merge(s, 1L, Long::sum);
  }

  private synchronized void matchedLoad(WatchedSource s, long nanos) {
    long[] n = stretchLoads.computeIfAbsent(s, k -> new long[2]);
    n[0]++;
    n[1] += nanos;
  }

  private synchronized void defined(SourceEvent type) {
    stretchDefines[type.ordinal()]++;
  }

  /**
   * Shares the growth of the JVM's class-loading time over the stretch among the {@code class_load} sources, and
   * among the {@code class_define} sources: each gets the share of the stretch's defined classes it matched (by stack,
   * or by the class each is charged to); one over the whole program gets all of it (a load
   * may define nothing new, and the classes the JDK's own loaders define are not all told). A source whose
   * {@code jdk.ClassLoad} events in the stretch took longer counts those instead.
   */
  private synchronized void settleDefines(long throughMillis) {
    boolean watched = DEFINES.stream().anyMatch(type -> byEvent[type.ordinal()].length > 0);
    long now = classLoadingKnown && watched ? classLoading.getAsLong() : -1;
    long before = classLoadingAtLastFlush;
    boolean grew = now >= 0 && before >= 0 && now >= before;
    for (SourceEvent type : DEFINES) {
      long defines = stretchDefines[type.ordinal()];
      for (WatchedSource s : byEvent[type.ordinal()]) {
        long matched = stretchDefineMatches.getOrDefault(s, 0L);
        long[] loads = stretchLoads.getOrDefault(s, new long[2]);
        double share = s.wholeProgram() ? 1.0 : defines == 0 ? 0 : (double) matched / defines;
        long shared = grew ? Math.round((now - before) * share * sinceShare(s, throughMillis)) : 0;
        // the counter times the VM's part of loading (parsing, defining, linking); a load the VM starts also runs the
        // loader's Java code (finding and reading the bytes), which jdk.ClassLoad times: the larger of the two. Over
        // the whole program the agent records no event where the counter is read (WatchedSources): the events other
        // sources turned on are theirs to pay for, so it counts none
        long events = s.wholeProgram() && now >= 0 ? 0 : Math.max(matched, loads[0]);
        s.add(events, Math.max(shared, loads[1]), 0);
      }
      stretchDefines[type.ordinal()] = 0;
    }
    classLoadingAtLastFlush = now;
    stretchDefineMatches.clear();
    stretchLoads.clear();
  }

  private synchronized void matchedSample(WatchedSource s, long tid) {
    stretchMatches.computeIfAbsent(s, k -> new HashMap<>()).merge(tid, 1L, Long::sum);
  }

  private synchronized void matchedIoSample(WatchedSource s, long tid) {
    ioSamples.matched(s, tid);
  }

  private synchronized void nativeTurn(long tid, java.time.Instant at) {
    nativeTurns.sampled(tid, at.getEpochSecond() * 1_000_000_000L + at.getNano());
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
