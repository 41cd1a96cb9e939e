package dev.bottlenose.agent.discovery;

import java.time.Duration;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

/**
 * The JFR events discovery listens to, streamed in-process on the {@code bottlenose-jfr} thread. Stack
 * traces only where an event must be attributed to code (monitor entry, allocation samples); slow-only
 * thresholds on I/O and contention to keep the event rate low. Thread-level events of the agent's own
 * {@code bottlenose-*} threads are dropped.
 */
final class JfrEvents {
  static final Duration CONTENTION_THRESHOLD = Duration.ofNanos(200_000);
  static final Duration IO_THRESHOLD = Duration.ofMillis(10);
  static final Duration CALL_GRAPH_PERIOD = Duration.ofMillis(50);

  private final SyncObjects sync;
  private final MemorySites memory;
  private final IoDiscovery io;
  private final VmDiscovery vm;
  private final MonitorWaits monitorWaits;
  private final VirtualThreads virtualThreads;
  private final CallGraph callGraph;

  JfrEvents(SyncObjects sync, MemorySites memory, IoDiscovery io, VmDiscovery vm, MonitorWaits monitorWaits,
      VirtualThreads virtualThreads, CallGraph callGraph) {
    this.callGraph = callGraph;
    this.virtualThreads = virtualThreads;
    this.sync = sync;
    this.memory = memory;
    this.io = io;
    this.vm = vm;
    this.monitorWaits = monitorWaits;
  }

  void start() {
    Thread t = new Thread(this::run, "bottlenose-jfr");
    t.setDaemon(true);
    t.start();
  }

  private void run() {
    try (RecordingStream s = new RecordingStream()) {
      s.setReuse(true);
      s.setOrdered(false);
      s.enable("jdk.JavaMonitorEnter").withThreshold(CONTENTION_THRESHOLD).withStackTrace();
      s.enable("jdk.ThreadPark").withThreshold(CONTENTION_THRESHOLD).withoutStackTrace();
      s.enable("jdk.ObjectAllocationSample").withStackTrace();
      s.enable("jdk.FileRead").withThreshold(IO_THRESHOLD).withoutStackTrace();
      s.enable("jdk.FileWrite").withThreshold(IO_THRESHOLD).withoutStackTrace();
      s.enable("jdk.SocketRead").withThreshold(IO_THRESHOLD).withoutStackTrace();
      s.enable("jdk.SocketWrite").withThreshold(IO_THRESHOLD).withoutStackTrace();
      s.enable("jdk.GarbageCollection").withoutThreshold();
      s.enable("jdk.Compilation").withoutThreshold().withoutStackTrace();
      s.enable("jdk.ExecuteVMOperation").withoutThreshold().withoutStackTrace();
      s.enable("jdk.Deoptimization").withoutStackTrace();
      s.enable("jdk.ExecutionSample").withPeriod(CALL_GRAPH_PERIOD).withStackTrace();
      s.onEvent("jdk.JavaMonitorEnter", ofApplication(atLeast(CONTENTION_THRESHOLD, this::monitorEnter)));
      s.onEvent("jdk.ThreadPark", ofApplication(atLeast(CONTENTION_THRESHOLD, this::park)));
      s.onEvent("jdk.ObjectAllocationSample", ofApplication(this::allocation));
      s.onEvent("jdk.FileRead", ofApplication(atLeast(IO_THRESHOLD,
          e -> io.fileOperation(e.getString("path"), false, e.getLong("bytesRead"), nanos(e)))));
      s.onEvent("jdk.FileWrite", ofApplication(atLeast(IO_THRESHOLD,
          e -> io.fileOperation(e.getString("path"), true, e.getLong("bytesWritten"), nanos(e)))));
      s.onEvent("jdk.SocketRead", ofApplication(atLeast(IO_THRESHOLD,
          e -> io.socketOperation(hostPort(e), false, e.getLong("bytesRead"), nanos(e)))));
      s.onEvent("jdk.SocketWrite", ofApplication(atLeast(IO_THRESHOLD,
          e -> io.socketOperation(hostPort(e), true, e.getLong("bytesWritten"), nanos(e)))));
      s.onEvent("jdk.GarbageCollection", guarded(e -> vm.gcPause(e.getString("name"), e.getDuration("sumOfPauses").toNanos())));
      s.onEvent("jdk.Compilation", guarded(this::compilation));
      s.onEvent("jdk.ExecuteVMOperation", guarded(e -> vm.vmOperation(e.getString("operation"), e.getBoolean("safepoint"), nanos(e))));
      s.onEvent("jdk.Deoptimization", guarded(e -> vm.deoptimization(String.valueOf(e.getString("reason")))));
      s.onEvent("jdk.ExecutionSample", guarded(this::executionSample));
      if (VirtualThreads.SUPPORTED) {
        s.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ofMillis(20)).withStackTrace();
        s.onEvent("jdk.VirtualThreadPinned", guarded(this::pinned));
      }
      vm.jfrStatus("running");
      s.start();
    } catch (Throwable t) {
      vm.jfrStatus("unavailable: " + t);
    }
  }

  /** The handler, for events of application threads only: the agent's own threads are not the program. */
  private Consumer<RecordedEvent> ofApplication(Consumer<RecordedEvent> handler) {
    return guarded(e -> {
      RecordedThread t = e.getThread();
      String name = t == null ? null : t.getJavaName();
      if (name == null || !name.startsWith("bottlenose-")) {
        handler.accept(e);
      }
    });
  }

  /**
   * The handler, for events of at least {@code threshold}: the watched sources' own stream may lower the
   * JVM's threshold for the same event type, and this stream then sees the shorter events too.
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
   * The handler, with anything it throws swallowed and counted: an event of an unexpected shape must
   * neither end the stream nor print into the target's output.
   */
  private Consumer<RecordedEvent> guarded(Consumer<RecordedEvent> handler) {
    return e -> {
      try {
        handler.accept(e);
      } catch (Throwable t) {
        vm.handlerFailed(e.getEventType().getName(), t);
      }
    };
  }

  private static long nanos(RecordedEvent e) {
    return e.getDuration().toNanos();
  }

  private static String hostPort(RecordedEvent e) {
    String host = e.getString("address");
    return (host == null || host.isEmpty() ? e.getString("host") : host) + ":" + e.getInt("port");
  }

  private void monitorEnter(RecordedEvent e) {
    long nanos = nanos(e);
    RecordedClass monitorClass = e.getClass("monitorClass");
    if (monitorClass != null) {
      sync.contendedMonitor(TypeNames.javaName(monitorClass.getName()), nanos);
    }
    vm.monitorBlocked(nanos);
    RecordedMethod top = topMethod(e.getStackTrace());
    if (top != null) {
      monitorWaits.add(top.getType().getName(), top.getName(), top.getDescriptor(), nanos);
    }
  }

  private void pinned(RecordedEvent e) {
    RecordedMethod top = topMethod(e.getStackTrace());
    virtualThreads.pinned(nanos(e), top == null ? null : top.getType().getName() + "." + top.getName());
  }

  private void park(RecordedEvent e) {
    RecordedClass parked = e.getClass("parkedClass");
    if (parked != null) {
      sync.contendedLock(TypeNames.javaName(parked.getName()), nanos(e));
    }
  }

  private void allocation(RecordedEvent e) {
    RecordedClass type = e.getClass("objectClass");
    RecordedMethod top = topMethod(e.getStackTrace());
    if (type != null && top != null) {
      memory.sampled(TypeNames.javaName(type.getName()), top.getType().getName() + "." + top.getName(), e.getLong("weight"));
    }
  }

  /** A sample of an application thread (not the agent's, not JFR's own) goes into the call graph. */
  private void executionSample(RecordedEvent e) {
    RecordedThread t = e.getThread("sampledThread");
    String name = t == null ? null : t.getJavaName();
    RecordedStackTrace stack = e.getStackTrace();
    if (name != null && !name.startsWith("bottlenose-") && !name.startsWith("JFR ") && stack != null) {
      callGraph.sampled(stack.getFrames());
    }
  }

  private void compilation(RecordedEvent e) {
    RecordedMethod m = e.getValue("method");
    if (m != null) {
      vm.compilation(e.getInt("compileLevel"), m.getType().getName() + "." + m.getName() + m.getDescriptor(), nanos(e));
    }
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
