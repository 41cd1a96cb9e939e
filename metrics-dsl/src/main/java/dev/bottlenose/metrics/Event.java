package dev.bottlenose.metrics;

import dev.bottlenose.model.Hierarchy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The events a watched source can count (daemon/PROTOCOL.md, "Watched sources"): which of count,
 * duration and bytes each reports, and which filters (code, thread, form, the object it is about) the
 * agent applies to it.
 */
enum Event {
  CPU_SAMPLE("jdk.ExecutionSample", true, false, true, true, true),
  GC_PAUSE("jdk.GarbageCollection", true, false, false, false, false),
  JIT_COMPILE("jdk.Compilation", true, true, true, false, false),
  CLASS_LOAD("jdk.ClassDefine with the JVM's class-loading time (else jdk.ClassLoad)", true, false, true, true, false),
  SAFEPOINT("jdk.ExecuteVMOperation (safepoint)", true, false, false, false, false),
  MONITOR_ENTER("jdk.JavaMonitorEnter", true, false, true, true, false),
  MONITOR_WAIT("jdk.JavaMonitorWait", true, false, true, true, false),
  PARK("jdk.ThreadPark", true, false, true, true, false),
  LOCK_PARK("jdk.ThreadPark (on a lock)", true, false, true, true, false),
  SLEEP("jdk.ThreadSleep", true, false, true, true, false),
  FILE_READ("jdk.FileRead", true, true, true, true, false),
  FILE_WRITE("jdk.FileWrite", true, true, true, true, false),
  SOCKET_READ("jdk.SocketRead", true, true, true, true, false),
  SOCKET_WRITE("jdk.SocketWrite", true, true, true, true, false),
  ALLOC_SAMPLE("jdk.ObjectAllocationSample", false, true, true, true, false),
  DEOPT("jdk.Deoptimization", false, false, true, true, false),
  IO_SAMPLE("jdk.NativeMethodSample (in a read, write or sync)", true, false, true, true, false),
  LOCK_SAMPLE("bottlenose.LockSample (a thread blocked on a monitor or parked on a lock, per sampling period)", true,
      false, false, true, false),
  CLASS_DEFINE("jdk.ClassDefine charged to its loader's class, with the JVM's class-loading time", true, false, true, true,
      false);

  final String jfrEvent;
  final boolean hasDuration;
  final boolean hasBytes;
  final boolean codeFilter;
  final boolean threadFilter;
  final boolean formFilter;

  Event(String jfrEvent, boolean hasDuration, boolean hasBytes, boolean codeFilter, boolean threadFilter, boolean formFilter) {
    this.jfrEvent = jfrEvent;
    this.hasDuration = hasDuration;
    this.hasBytes = hasBytes;
    this.codeFilter = codeFilter;
    this.threadFilter = threadFilter;
    this.formFilter = formFilter;
  }

  /** The name used in metric files and on the wire, e.g. {@code monitor_enter}. */
  String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The measures it reports, as written after {@code accumulates}: count, duration, bytes. */
  List<String> measures() {
    List<String> m = new ArrayList<>(List.of("count"));
    if (hasDuration) {
      m.add("duration");
    }
    if (hasBytes) {
      m.add("bytes");
    }
    return m;
  }

  /**
   * The hierarchy of the object the event is about, which a source can filter on besides code and thread:
   * /SyncObjects for blocking on a monitor or a lock (its class; a lock sample names it too), /IO for a file or
   * socket operation; null for the others.
   */
  Hierarchy objectHierarchy() {
    return switch (this) {
      case MONITOR_ENTER, MONITOR_WAIT, PARK, LOCK_PARK, LOCK_SAMPLE -> Hierarchy.SYNC_OBJECTS;
      case FILE_READ, FILE_WRITE, SOCKET_READ, SOCKET_WRITE -> Hierarchy.IO;
      default -> null;
    };
  }

  /**
   * True for the samples taken on a timer whatever the program does (JFR's execution and native-method samples, the
   * agent's lock samples): their cost is a fixed rate, not a price per event.
   */
  boolean sampled() {
    return this == CPU_SAMPLE || this == IO_SAMPLE || this == LOCK_SAMPLE;
  }

  /** True for the events that match code on the compiled or deoptimised method itself (no caller: filter). */
  boolean matchesMethodItself() {
    return this == JIT_COMPILE || this == DEOPT;
  }

  static Event byWord(String word) {
    for (Event e : values()) {
      if (e.word().equals(word)) {
        return e;
      }
    }
    return null;
  }

  static List<String> names() {
    List<String> names = new ArrayList<>();
    for (Event e : values()) {
      names.add(e.word());
    }
    return names;
  }
}
