package dev.bottlenose.tests.bench;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.consultant.SearchOptions;
import dev.bottlenose.consultant.bus.DaemonProtocol;
import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * Measured windows of workload JVMs: a whole {@link #session} in one JVM, or one window in a fresh JVM
 * ({@link #without}, {@link #with}). A with-tool window runs from a search's start at the budget; a search
 * that ends early is replaced by a new one, so one is running for the whole window. A budget of 0 means the
 * daemon attached and no search: the tool's cost at rest.
 */
final class Trial {
  private final Bus bus;
  private final Settings settings;
  /** The session's twin JVM that never sees the tool, measured over the same windows; null without one. */
  private WorkloadJvm control;

  Trial(Bus bus, Settings settings) {
    this.bus = bus;
    this.settings = settings;
  }

  /** A fresh JVM: warm-up, as long again as an attach took, then one window without the tool. */
  TrialResult without(Class<?> workload, String name, int rep, double attachSeconds) throws Exception {
    control = null;
    try (WorkloadJvm target = WorkloadJvm.start(workload, settings.jvmOptions())) {
      sleep(settings.warmup().toMillis() + Math.round(attachSeconds * 1000));
      return window(target, -1, name, Double.NaN, rep, 0, null, null);
    }
  }

  /** A fresh JVM: warm-up, the daemon attaches, then one window with a search at {@code budget}. */
  TrialResult with(Class<?> workload, String name, double budget, int rep) throws Exception {
    control = null;
    try (WorkloadJvm target = WorkloadJvm.start(workload, settings.jvmOptions())) {
      sleep(settings.warmup().toMillis());
      long attachStart = System.nanoTime();
      try (DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret())) {
        bus.awaitRunning(daemon);
        double attachSeconds = (System.nanoTime() - attachStart) / 1e9;
        return window(target, daemonPid(target.pid()), name, budget, rep, attachSeconds, daemon.id(),
            budget > 0 ? daemon : null);
      }
    }
  }

  /** The budget recorded for the window right after the attach: no search, the attach's one-time aftermath. */
  static final double ATTACH = -1;

  /**
   * One JVM, several windows: without the tool; then, right after the daemon attached, the attach's aftermath
   * ({@link #ATTACH}, no search); after {@link Settings#settle} unmeasured, at rest with no search; then one
   * search per budget in the order given, with {@code gap} unmeasured between windows for the previous
   * search's instrumentation to be removed. With {@link Settings#control}, a twin JVM of the same workload
   * runs alongside from the start, never sees the tool, and is measured over the same windows. Answers the
   * windows measured; if the daemon cannot attach, only the first.
   */
  List<TrialResult> session(Class<?> workload, String name, int rep, List<Double> budgets, Duration gap,
      java.util.function.Consumer<TrialResult> each) throws Exception {
    List<TrialResult> out = new java.util.ArrayList<>();
    java.util.function.Consumer<TrialResult> add = each.andThen(out::add);
    try (WorkloadJvm target = WorkloadJvm.start(workload, settings.jvmOptions());
        WorkloadJvm twin = settings.control() ? WorkloadJvm.start(workload, settings.jvmOptions())
            : null) {
      control = twin;
      System.out.println("target " + name + " rep " + rep + " pid=" + target.pid() + " startedAtMillis="
          + ProcessHandle.of(target.pid()).flatMap(p -> p.info().startInstant()).map(i -> i.toEpochMilli()).orElse(-1L));
      sleep(settings.warmup().toMillis());
      add.accept(window(target, -1, name, Double.NaN, rep, 0, null, null));
      long attachStart = System.nanoTime();
      try (DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret())) {
        try {
          bus.awaitRunning(daemon);
        } catch (RuntimeException e) {
          System.out.println("attach failed, rep " + rep + " of " + name + ": " + e.getMessage());
          return out;
        }
        double attachSeconds = (System.nanoTime() - attachStart) / 1e9;
        long daemonPid = daemonPid(target.pid());
        add.accept(window(target, daemonPid, name, ATTACH, rep, attachSeconds, daemon.id(), null));
        sleep(settings.settle().toMillis());
        add.accept(window(target, daemonPid, name, 0, rep, attachSeconds, daemon.id(), null));
        for (double budget : budgets) {
          sleep(gap.toMillis());
          add.accept(window(target, daemonPid, name, budget, rep, attachSeconds, daemon.id(), daemon));
        }
      }
    }
    return out;
  }

  private TrialResult window(WorkloadJvm target, long daemonPid, String name, double budget, int rep, double attach,
      String daemonId, DaemonProcess daemon) throws Exception {
    long startedAt = System.currentTimeMillis();
    double load = loadAverage();
    CostTally tally = new CostTally();
    MessageConsumer<JsonObject> costs = daemonId == null ? null
        : bus.vertx().eventBus().consumer(Addresses.values(daemonId), tally);
    int[] searchStats = new int[4];
    Snapshot start = Snapshot.take(target, daemonPid);
    Twin controlStart = Twin.take(control);
    tally.open = true;
    Snapshot[] mid = new Snapshot[1];
    Twin[] controlMid = new Twin[1];
    MidPoint atMid = () -> {
      if (mid[0] == null) {
        mid[0] = Snapshot.take(target, daemonPid);
        controlMid[0] = Twin.take(control);
      }
    };
    if (daemon != null) {
      searchStats[0] = runSearches(daemonId, name, budget, rep, searchStats, atMid);
    } else {
      sleep(settings.window().toMillis() / 2);
      atMid.take();
      sleep(settings.window().toMillis() - settings.window().toMillis() / 2);
    }
    tally.open = false;
    Snapshot end = Snapshot.take(target, daemonPid);
    Twin controlEnd = Twin.take(control);
    if (costs != null) {
      costs.unregister();
    }
    return result(name, budget, rep, startedAt, load, attach, start, mid[0], end,
        new double[] {tally.probe.sum() / 1e9, tally.agent.sum() / 1e9}, searchStats,
        new Twin[] {controlStart, controlMid[0], controlEnd});
  }

  /** Keeps a search running until the window is over; answers how many were started. */
  private int runSearches(String daemonId, String name, double budget, int rep, int[] stats, MidPoint atMid)
      throws Exception {
    long deadline = System.nanoTime() + settings.window().toNanos();
    long mid = deadline - settings.window().toNanos() / 2;
    int searches = 0;
    while (System.nanoTime() < deadline) {
      searches++;
      String id = String.format("bench-%s-%s-r%d-%d-%d", name, Math.round(budget * 1000), rep, searches,
          System.currentTimeMillis() % 100_000);
      NodeCounter counter = new NodeCounter();
      MessageConsumer<JsonObject> events = bus.vertx().eventBus().consumer(Addresses.searchEvents(id), counter);
      SearchOptions options = SearchOptions.of(id);
      for (var o : settings.overrides().entrySet()) {
        options = options.with(o.getKey(), o.getValue());
      }
      options = options.withBudget(budget).withMaxTime(settings.window().plus(Duration.ofMinutes(2)));
      SearchRunner runner = SearchRunner.start(bus.vertx(), List.of(daemonId), options, settings.dataDirectory(), "a benchmark");
      do {
        sleep(Math.min(250, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
        if (System.nanoTime() >= mid) {
          atMid.take();
        }
      } while (System.nanoTime() < deadline && !runner.saved().isComplete());
      runner.stop("benchmark window over");
      runner.saved().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      if (System.nanoTime() < deadline) {
        System.out.println("search " + id + " ended early: " + runner.search().endReason());
      }
      events.unregister();
      stats[1] += counter.nodes();
      stats[2] += counter.trueNodes();
      stats[3] = Math.max(stats[3], counter.maxTesting());
    }
    return searches;
  }

  private static TrialResult result(String name, double budget, int rep, long startedAt, double load, double attach,
      Snapshot start, Snapshot mid, Snapshot end, double[] reported, int[] search, Twin[] control) {
    return new TrialResult(name, budget, rep, startedAt, load, attach, (end.nanos() - start.nanos()) / 1e9,
        end.units() - start.units(), end.cpu() - start.cpu(), ProcCpu.byGroup(start.threads(), end.threads()),
        end.daemonCpu() - start.daemonCpu(), end.selfCpu() - start.selfCpu(), reported[0], reported[1], search[0],
        search[1], search[2], search[3], (end.nanos() - mid.nanos()) / 1e9, end.units() - mid.units(),
        end.cpu() - mid.cpu(), Twin.cpuPerUnit(control[0], control[2]), Twin.cpuPerUnit(control[1], control[2]));
  }

  /** The daemon process this JVM started for {@code targetPid}. */
  private static long daemonPid(long targetPid) {
    return ProcessHandle.current().children()
        .filter(p -> p.info().commandLine().map(c -> c.contains("--pid " + targetPid + " ")).orElse(false))
        .findFirst().orElseThrow(() -> new IllegalStateException("no daemon process for pid " + targetPid)).pid();
  }

  static double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg"), StandardCharsets.UTF_8).split(" ")[0]);
    } catch (java.io.IOException e) {
      return Double.NaN;
    }
  }

  private static void sleep(long millis) throws InterruptedException {
    Thread.sleep(millis);
  }

  /** Where a window starts or ends: units done, target CPU (total and per thread), daemon and own CPU. */
  record Snapshot(long nanos, long units, double cpu, java.util.Map<Long, ProcCpu.ThreadCpu> threads,
      double daemonCpu, double selfCpu) {
    static Snapshot take(WorkloadJvm target, long daemonPid) throws java.io.IOException {
      long units = target.units();
      long nanos = System.nanoTime();
      double cpu = ProcCpu.processSeconds(target.pid());
      var threads = ProcCpu.threads(target.pid());
      double daemon = daemonPid < 0 ? 0 : ProcCpu.processSeconds(daemonPid);
      return new Snapshot(nanos, units, cpu, threads, daemon, ProcCpu.processSeconds(ProcessHandle.current().pid()));
    }
  }

  /** Units done and CPU used so far by the control twin ({@code null} without one). */
  record Twin(long units, double cpu) {
    static Twin take(WorkloadJvm twin) throws java.io.IOException {
      if (twin == null) {
        return null;
      }
      return new Twin(twin.units(), ProcCpu.processSeconds(twin.pid()));
    }

    /** The twin's CPU milliseconds per unit between two snapshots, NaN without a twin. */
    static double cpuPerUnit(Twin from, Twin to) {
      return from == null || to == null ? Double.NaN : (to.cpu - from.cpu) * 1000 / (to.units - from.units);
    }
  }

  /** Sums the cost the daemon reports in its samples while the window is open. */
  private static final class CostTally implements io.vertx.core.Handler<io.vertx.core.eventbus.Message<JsonObject>> {
    final DoubleAdder probe = new DoubleAdder();
    final DoubleAdder agent = new DoubleAdder();
    volatile boolean open;

    @Override
    public void handle(io.vertx.core.eventbus.Message<JsonObject> m) {
      JsonObject cost = m.body().getJsonObject("cost");
      if (open && cost != null) {
        probe.add(cost.getLong("probeNanos", 0L));
        agent.add(cost.getLong("agentCpuNanos", 0L));
      }
    }
  }

  /** Takes the snapshot in the middle of the window, once. */
  private interface MidPoint {
    void take() throws java.io.IOException;
  }

  /**
   * The benchmark's timing and the target JVM's options. {@code settle}: in a session, how long after the attach
   * window the at-rest and search windows wait (unmeasured) for the attach's one-time aftermath to end;
   * {@code overrides}: consultant settings given to every search (the budget and time limit are the window's).
   */
  record Settings(Duration warmup, Duration window, List<String> jvmOptions, Path dataDirectory, boolean control,
      Duration settle, java.util.Map<String, String> overrides) {
  }
}
