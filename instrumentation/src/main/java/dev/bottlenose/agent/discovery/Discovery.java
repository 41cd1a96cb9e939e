package dev.bottlenose.agent.discovery;

import dev.bottlenose.agent.AgentLog;
import dev.bottlenose.agent.wire.Jfr;
import dev.bottlenose.agent.sources.ToolCode;
import dev.bottlenose.agent.sources.ToolThreads;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourceChange;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Finds the resources of this JVM and keeps them current in one {@link ResourceTree}: sources run on
 * the {@code bottlenose-discovery} thread, and what JFR tells arrives as the daemon's digests of the
 * agent's recording ({@link #applyJfr}); every 500 ms the changes, coalesced per resource by the tree, are
 * handed to whoever listens. It runs while a daemon is connected: the agent makes one for the first session
 * and {@link #stop}s it with the last.
 */
public final class Discovery {
  static final long PUBLISH_MILLIS = 500;

  private final ResourceTree tree = new ResourceTree();
  private final CodeDiscovery code;
  private final SyncObjects sync = new SyncObjects(tree);
  private final ThreadDiscovery threads = new ThreadDiscovery(tree, sync);
  private final VirtualThreads virtualThreads = new VirtualThreads(tree);
  private final MemorySites memory = new MemorySites(tree);
  private final IoDiscovery io = new IoDiscovery(tree);
  private final VmDiscovery vm = new VmDiscovery(tree);
  private final MonitorWaits monitorWaits = new MonitorWaits();
  private final JfrDigest jfr = new JfrDigest(sync, memory, io, vm, monitorWaits, virtualThreads);
  private final List<Consumer<List<ResourceChange>>> listeners = new CopyOnWriteArrayList<>();
  private final CountDownLatch started = new CountDownLatch(1);
  private final ClassDefineDuty classDefines = new ClassDefineDuty();
  private final java.lang.management.ClassLoadingMXBean classLoading =
      java.lang.management.ManagementFactory.getClassLoadingMXBean();
  private volatile Consumer<Boolean> classDefinesListener;
  private boolean classDefinesRecorded = true;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(r -> ToolThreads.newThread("bottlenose-discovery", r));

  public Discovery(Instrumentation instrumentation) {
    this.code = new CodeDiscovery(instrumentation, tree);
  }

  /** Populates the tree in the background and keeps it current. */
  public void start() {
    scheduler.execute(guarded(() -> {
      try {
        ProcessDiscovery.start(tree);
        vm.start();
        sync.start();
        memory.start();
        io.start();
        threads.start();
        threads.refresh();
        code.start();
      } finally {
        started.countDown();
      }
    }));
    every(1000, threads::refresh);
    every(1000, virtualThreads::refresh);
    every(1000, code::refresh);
    every(5000, code::markUnloaded);
    every(1000, vm::refresh);
    every(2000, io::refresh);
    every(PUBLISH_MILLIS, this::publish);
    every(1000, this::classDefineDuty);
  }

  /**
   * Tells {@code listener}, on discovery's thread, each time the recording is to record every class definition
   * from now on (true) or none (false) for discovery: {@link ClassDefineDuty}. Until a first change it records them.
   */
  public void onClassDefines(Consumer<Boolean> listener) {
    classDefinesListener = listener;
  }

  private void classDefineDuty() {
    boolean on = classDefines.next(System.nanoTime(), classLoading.getTotalLoadedClassCount());
    Consumer<Boolean> listener = classDefinesListener;
    if (on != classDefinesRecorded && listener != null) {
      classDefinesRecorded = on;
      listener.accept(on);
    }
  }

  /**
   * Stops for good: the {@code bottlenose-discovery} thread ends (waited for up to {@code millis}), the class
   * transformer is removed, contention monitoring is turned off again if discovery turned it on, and nothing
   * is handed to listeners any more. What it found goes with this object.
   */
  public void stop(long millis) throws InterruptedException {
    listeners.clear();
    scheduler.shutdownNow();
    code.stop();
    threads.stop();
    scheduler.awaitTermination(millis, TimeUnit.MILLISECONDS);
  }

  /** Shows the agent's recording's state on {@code /VM} ({@code running}, {@code stopped}, {@code unavailable: …}). */
  public void jfrStatus(String status) {
    vm.jfrStatus(status);
  }

  /** Puts a daemon's digest of the recording's events into the hierarchies; how many events it held. */
  public int applyJfr(Jfr digest) {
    return jfr.apply(digest);
  }

  /** Waits until the first population of every hierarchy is done (or {@code millis} passed). */
  public void awaitStarted(long millis) throws InterruptedException {
    started.await(millis, TimeUnit.MILLISECONDS);
  }

  private void every(long millis, Runnable task) {
    scheduler.scheduleWithFixedDelay(guarded(task), millis, millis, TimeUnit.MILLISECONDS);
  }

  private static Runnable guarded(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (Throwable t) {
        AgentLog.line("discovery step failed: " + t);
      }
    };
  }

  /** The resource at {@code path} then its descendants to {@code depth} (-1: all); null if unknown. */
  public List<Resource> resources(ResourcePath path, int depth) {
    if (depth != 0) {
      code.expandMethods(path, depth);
    }
    if (tree.get(path) == null) {
      return null;
    }
    List<Resource> found = tree.subtree(path, depth);
    return path.hierarchy() == Hierarchy.THREADS ? threads.withLive(found) : found;
  }

  /** The live classes named {@code className}, for checking a method exists before probing it. */
  public List<Class<?>> classesNamed(String className) {
    return code.classesNamed(className);
  }

  public MonitorWaits monitorWaits() {
    return monitorWaits;
  }

  /** The VM's totals since the agent started, and the program's threads' waits ({@code threadWaits}) once counted. */
  public Map<String, Object> vmTotals(long processCpuNanos) {
    Map<String, Object> totals = vm.totals(processCpuNanos);
    long waits = threads.programWaits();
    if (waits >= 0) {
      totals.put("threadWaits", waits);
    }
    return totals;
  }

  /** CPU time of the agent's own threads ({@code bottlenose-*}) and of JFR's threads; -1 if unknown. */
  public long agentCpuNanos() {
    String[] jfrThreads = vm.jfrRunning() ? new String[] {ToolCode.AGENT_THREADS, ToolCode.JFR_THREADS}
        : new String[] {ToolCode.AGENT_THREADS};
    return threads.cpuNanosOfThreadsNamed(jfrThreads);
  }

  public void addListener(Consumer<List<ResourceChange>> listener) {
    listeners.add(listener);
  }

  public void removeListener(Consumer<List<ResourceChange>> listener) {
    listeners.remove(listener);
  }

  private void publish() {
    List<ResourceChange> drained = tree.drainChanges();
    if (drained.isEmpty() || listeners.isEmpty()) {
      return;
    }
    for (Consumer<List<ResourceChange>> l : listeners) {
      l.accept(drained);
    }
  }
}
