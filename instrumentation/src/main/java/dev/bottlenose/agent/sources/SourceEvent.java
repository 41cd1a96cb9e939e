package dev.bottlenose.agent.sources;

import dev.bottlenose.agent.discovery.TypeNames;
import java.util.Locale;
import jdk.jfr.consumer.RecordedEvent;

/**
 * The events a watched source can count, one JFR event type each: what a matching event adds to
 * {@code count}, {@code nanos} and {@code bytes}, which thread field names the event's thread, and
 * how a {@code code} filter applies (to the stack trace, to the compiled method, or not at all).
 */
public enum SourceEvent {
  CPU_SAMPLE("jdk.ExecutionSample", Code.STACK, "sampledThread", null, false),
  GC_PAUSE("jdk.GarbageCollection", Code.NONE, null, null, false),
  JIT_COMPILE("jdk.Compilation", Code.METHOD, null, "codeSize", true),
  CLASS_LOAD("jdk.ClassLoad", Code.STACK, "eventThread", null, true),
  SAFEPOINT("jdk.ExecuteVMOperation", Code.NONE, null, null, true),
  MONITOR_ENTER("jdk.JavaMonitorEnter", Code.STACK, "eventThread", null, true),
  MONITOR_WAIT("jdk.JavaMonitorWait", Code.STACK, "eventThread", null, true),
  PARK("jdk.ThreadPark", Code.STACK, "eventThread", null, true),
  LOCK_PARK("jdk.ThreadPark", Code.STACK, "eventThread", null, true),
  SLEEP("jdk.ThreadSleep", Code.STACK, "eventThread", null, true),
  FILE_READ("jdk.FileRead", Code.STACK, "eventThread", "bytesRead", true),
  FILE_WRITE("jdk.FileWrite", Code.STACK, "eventThread", "bytesWritten", true),
  SOCKET_READ("jdk.SocketRead", Code.STACK, "eventThread", "bytesRead", true),
  SOCKET_WRITE("jdk.SocketWrite", Code.STACK, "eventThread", "bytesWritten", true),
  ALLOC_SAMPLE("jdk.ObjectAllocationSample", Code.STACK, "eventThread", "weight", false),
  DEOPT("jdk.Deoptimization", Code.METHOD, "eventThread", null, false),
  IO_SAMPLE("jdk.NativeMethodSample", Code.STACK, "sampledThread", null, false),
  LOCK_SAMPLE(LockSamples.EVENT, Code.NONE, "sampledThread", null, false),
  CLASS_DEFINE("jdk.ClassDefine", Code.LOADER, "eventThread", null, false);

  /**
   * How a {@code code} filter applies to the event: to its stack trace, to its method, to the class a defined class
   * is charged to ({@link #chargedClass}), or not at all.
   */
  public enum Code {
    STACK,
    METHOD,
    LOADER,
    NONE
  }

  public final String jfrName;
  public final Code code;
  public final String threadField;
  final String bytesField;
  final boolean hasDuration;

  SourceEvent(String jfrName, Code code, String threadField, String bytesField, boolean hasDuration) {
    this.jfrName = jfrName;
    this.code = code;
    this.threadField = threadField;
    this.bytesField = bytesField;
    this.hasDuration = hasDuration;
  }

  /**
   * Whether the source event named {@code word} is a sample taken on a timer ({@code cpu_sample} and {@code io_sample},
   * JFR's; {@code lock_sample}, the agent's), whose rate says nothing about what its source costs.
   */
  public static boolean isSampled(String word) {
    return CPU_SAMPLE.word().equals(word) || IO_SAMPLE.word().equals(word) || LOCK_SAMPLE.word().equals(word);
  }

  String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  static SourceEvent byWord(String word) {
    for (SourceEvent e : values()) {
      if (e.word().equals(word)) {
        return e;
      }
    }
    return null;
  }

  static String words() {
    StringBuilder b = new StringBuilder();
    for (SourceEvent e : values()) {
      b.append(b.length() == 0 ? "" : ", ").append(e.word());
    }
    return b.toString();
  }

  /**
   * False for events of this type that are not what the source counts: VM operations outside a safepoint, and
   * the garbage collections' own ({@link #isCollection}: {@code gc_pause} counts those), for {@code safepoint};
   * parks on anything but a lock for {@code lock_park}.
   */
  public boolean counts(RecordedEvent e) {
    return counts(e, c -> TypeNames.javaName(c.getName()));
  }

  /**
   * As {@link #counts(RecordedEvent)}, a class's Java name given by {@code javaName}: a reader that sees the same few
   * blocker classes in thousands of parks a second works each name out once.
   */
  public boolean counts(RecordedEvent e, java.util.function.Function<jdk.jfr.consumer.RecordedClass, String> javaName) {
    return switch (this) {
      case SAFEPOINT -> e.getBoolean("safepoint") && !isCollection(e.getString("operation"));
      case LOCK_PARK -> {
        jdk.jfr.consumer.RecordedClass blocker = e.getClass("parkedClass");
        yield blocker != null && isLockClass(javaName.apply(blocker));
      }
      case IO_SAMPLE -> inIo(e.getStackTrace());
      default -> true;
    };
  }

  /**
   * Whether a VM operation is a garbage collection's pause, by the names HotSpot's collectors give theirs: Serial's
   * and Parallel's ({@code GenCollectForAllocation}, {@code ParallelGCFailedAllocation}, {@code
   * CollectForMetadataAllocation}), G1's ({@code G1CollectForAllocation}, {@code G1CollectFull}, {@code
   * G1TryInitiateConcMark}, {@code G1Concurrent}, {@code G1PauseRemark}), ZGC's ({@code ZMarkStart}, {@code
   * XMarkStart} for the older mode) and Shenandoah's ({@code ShenandoahInitMark}). Counted once, as GC, not
   * again as a safepoint.
   */
  static boolean isCollection(String operation) {
    if (operation == null || operation.isEmpty()) {
      return false;
    }
    if (operation.contains("GC") || operation.contains("Collect") || operation.startsWith("G1") || operation.startsWith("Shenandoah")) {
      return true;
    }
    char first = operation.charAt(0);
    return (first == 'Z' || first == 'X') && operation.length() > 1 && Character.isUpperCase(operation.charAt(1));
  }

  /**
   * The JDK's locks, whose synchronisers a thread parks on while it waits to acquire them: {@code ReentrantLock},
   * {@code ReentrantReadWriteLock} (their {@code Sync} classes), {@code StampedLock} and {@code Semaphore}.
   * A park on anything else waits for an event, not for a lock: a {@code Condition} (a queue's
   * {@code poll}/{@code take}, a pool's idle worker), a future, a latch, a barrier, a {@code ForkJoinPool}'s
   * idle worker, or no blocker at all. async-profiler's lock profiler draws the same line.
   */
  public static boolean isLockClass(String className) {
    return className != null && (className.startsWith("java.util.concurrent.locks.ReentrantLock")
        || className.startsWith("java.util.concurrent.locks.ReentrantReadWriteLock")
        || className.startsWith("java.util.concurrent.locks.StampedLock")
        || className.startsWith("java.util.concurrent.Semaphore"));
  }

  /** Whether a native-method sample's top frame is one of the {@link IoNatives}. */
  private static boolean inIo(jdk.jfr.consumer.RecordedStackTrace stack) {
    if (stack == null || stack.getFrames().isEmpty()) {
      return false;
    }
    jdk.jfr.consumer.RecordedMethod m = stack.getFrames().get(0).getMethod();
    return m != null && m.getType() != null && IoNatives.isIo(m.getType().getName(), m.getName());
  }

  /**
   * The time one event stands for: its duration, the sampling period for a sample ({@code io_sample}'s is
   * weighted by the daemon, which knows how many threads the native sampler takes turns among; a lock sample
   * carries its own).
   */
  public long nanos(RecordedEvent e, long samplePeriodNanos) {
    return switch (this) {
      case CPU_SAMPLE, IO_SAMPLE -> samplePeriodNanos;
      case LOCK_SAMPLE -> e.getDuration("period").toNanos();
      case GC_PAUSE -> e.getDuration("sumOfPauses").toNanos();
      case ALLOC_SAMPLE, DEOPT -> 0;
      default -> e.getDuration().toNanos();
    };
  }

  /**
   * The class a {@code jdk.ClassDefine} event is charged to, as far as the event tells without a stack: the class
   * of the loader that defined it, the program's code that finds and defines the bytes (a plugin host's, a script
   * engine's, an application server's loader); when one of the JDK's loaders defined it (the application's own
   * classes, generated ones), the defined class itself, which code of its own package mostly asks for first.
   * A binary name, or null when the event names neither.
   */
  public static String chargedClass(RecordedEvent e) {
    jdk.jfr.consumer.RecordedClass defined = e.getValue("definedClass");
    jdk.jfr.consumer.RecordedClassLoader loader = e.getValue("definingClassLoader");
    jdk.jfr.consumer.RecordedClass loaderType = loader == null ? null : loader.getType();
    String loaderName = loaderType == null ? null : TypeNames.javaName(loaderType.getName());
    if (loaderName != null && !dev.bottlenose.model.CodePaths.inPlatformClass(loaderName)) {
      return loaderName;
    }
    return defined == null ? null : TypeNames.javaName(defined.getName());
  }

  public long bytes(RecordedEvent e) {
    return bytesField == null ? 0 : Math.max(0, e.getLong(bytesField));
  }
}
