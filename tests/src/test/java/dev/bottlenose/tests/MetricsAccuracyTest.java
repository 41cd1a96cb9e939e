package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.tests.harness.AttachedTarget;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.Metrics;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.KnownAnswerWorkload;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Built-in metrics, enabled as metric–focus pairs on a real daemon over the event bus, against a
 * workload that knows its own answers. A metric's total over a run is the sum of its per-interval
 * values times the interval ({@link Metrics#integral}). {@code churn} is kept out of line
 * ({@code CompileCommand=dontinline}), so every call to it is a real call.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetricsAccuracyTest {
  private static final String CLASS = "/Code/dev.bottlenose.tests.workloads/KnownAnswerWorkload";
  private static final String CHURN = "<" + CLASS + "/churn([J)V>";
  private static final String SPIN = "<" + CLASS + "/spin(J)J>";
  private static final String PROGRAM = "<>";

  private AttachedTarget attached;
  private Bus bus;
  private DaemonProcess daemon;
  private Metrics metrics;

  @BeforeAll
  void start() throws Exception {
    attached = AttachedTarget.start(Jdk.JDK17, KnownAnswerWorkload.class, "-XX:CompileCommand=quiet",
        "-XX:CompileCommand=dontinline,dev.bottlenose.tests.workloads.KnownAnswerWorkload::churn");
    bus = attached.bus;
    daemon = attached.daemon;
    metrics = attached.metrics;
  }

  @AfterAll
  void stop() throws Exception {
    attached.close();
  }

  @Test
  void callsAndObjectsCreatedAreExactAndTheOverheadsFollowTheirDefinitions() throws Exception {
    long calls = enable("calls", CHURN);
    long objects = enable("obj_create", CHURN);
    long callOverhead = enable("method_call_overhead", CHURN);
    long inlined = enable("cpu_inlined", CHURN);
    long inclusive = enable("cpu_inclusive", CHURN);
    long creationOverhead = enable("object_creation_overhead", CHURN);
    long gc = enable("gc_time", PROGRAM);
    long sampled = enable("alloc_sampled_bytes", CHURN);
    long sampledProgram = enable("alloc_sampled_bytes", PROGRAM);
    metrics.awaitValues(calls, objects, callOverhead, inlined, inclusive, creationOverhead, gc, sampled, sampledProgram);
    String done = attached.run("alloc 1500");
    metrics.awaitSamples(6);
    long points = TargetJvm.field(done, "points");
    long arrays = TargetJvm.field(done, "arrays");

    assertThat(metrics.integral(calls)).as("calls: one per 100 points").isCloseTo(points / 100.0, within(0.01));
    assertThat(metrics.integral(objects)).as("points, long[8] arrays and one ArrayList per call")
        .isCloseTo(points + arrays + points / 100.0, within(0.01));

    JsonObject calibration = bus.request(Addresses.status(daemon.id()), new JsonObject()).getJsonObject("calibration");
    double call = calibration.getLong("virtualCallNanos") * 1e-9;
    double allocation = calibration.getLong("allocationNanos") * 1e-9;
    List<Map<Long, Double>> rows = metrics.aligned(calls, objects, callOverhead, inlined, inclusive, creationOverhead,
        gc, sampled, sampledProgram);
    assertThat(rows).hasSizeGreaterThan(5);
    double callTotal = 0;
    double callExpected = 0;
    double creationTotal = 0;
    double creationExpected = 0;
    for (Map<Long, Double> r : rows.subList(2, rows.size())) {
      double inlinedShare = r.get(inclusive) == 0 ? 0 : r.get(inlined) / r.get(inclusive);
      double sampledShare = r.get(sampledProgram) == 0 ? 0 : r.get(sampled) / r.get(sampledProgram);
      callExpected += r.get(calls) * (1 - inlinedShare) * call;
      callTotal += r.get(callOverhead);
      creationExpected += r.get(objects) * allocation + r.get(gc) * sampledShare;
      creationTotal += r.get(creationOverhead);
    }
    assertThat(callTotal).as("method_call_overhead = calls × (1 − inlined share) × virtual call").isPositive()
        .isCloseTo(callExpected, within(callExpected * 0.05));
    assertThat(creationTotal).as("object_creation_overhead = objects × allocation + gc × sampled byte share")
        .isPositive().isCloseTo(creationExpected, within(creationExpected * 0.05));
    disableAll(calls, objects, callOverhead, inlined, inclusive, creationOverhead, gc, sampled, sampledProgram);
  }

  /**
   * Object creation from allocation samples: the bytes JFR's samples attribute to the churning method are the
   * bytes its thread allocated on the heap meanwhile (the JVM's own per-thread count), within the samples' error,
   * and object_creation_sampled is those bytes at the calibrated allocation cost per 24 bytes plus the method's
   * share of GC pauses. Probes are no answer here: they count a Point that escape analysis kept off the heap.
   */
  @Test
  void objectCreationFromSamplesWeighsTheBytesTheThreadAllocated() throws Exception {
    long sampled = enable("alloc_sampled_bytes", CHURN);
    long sampledProgram = enable("alloc_sampled_bytes", PROGRAM);
    long gc = enable("gc_time", PROGRAM);
    long creation = enable("object_creation_sampled", CHURN);
    metrics.awaitValues(sampled, sampledProgram, gc, creation);
    String done = attached.run("alloc 3000");
    // until the run's allocation samples have all been read: JFR delivers them late, later on a loaded machine
    metrics.awaitSettled(sampled, creation);

    long heapBytes = TargetJvm.field(done, "heapBytes");
    assertThat(heapBytes).as("bytes the thread allocated").isPositive();
    // JFR throttles its allocation samples (150 a second for the whole JVM) and weighs each by the bytes since the
    // thread's previous one, so what the thread allocates after its last sample in the run is weighed by none. The
    // estimate came to 0.87-1.00 of the thread's own count on a quiet machine, and to 0.64 and 0.75 of it in two CI
    // runs of 3 s (not explained further); over it only by the bytes before the first sample
    assertThat(metrics.integral(sampled)).as("bytes the allocation samples weigh in the method")
        .isBetween(heapBytes * 0.6, heapBytes * 1.1);

    JsonObject calibration = bus.request(Addresses.status(daemon.id()), new JsonObject()).getJsonObject("calibration");
    double allocation = calibration.getLong("allocationNanos") * 1e-9;
    double total = 0;
    double expected = 0;
    for (Map<Long, Double> r : metrics.aligned(sampled, sampledProgram, gc, creation)) {
      double share = r.get(sampledProgram) == 0 ? 0 : r.get(sampled) / r.get(sampledProgram);
      expected += r.get(sampled) / 24 * allocation + r.get(gc) * share;
      total += r.get(creation);
    }
    assertThat(total).as("object_creation_sampled = sampled bytes / 24 × allocation + gc × sampled byte share")
        .isPositive().isCloseTo(expected, within(expected * 0.05));
    disableAll(sampled, sampledProgram, gc, creation);
  }

  @Test
  void aClassFocusCountsTheCallsOfEveryMethodOfTheClass() throws Exception {
    JsonObject enabled = metrics.enable("calls", "<" + CLASS + ">");
    long calls = enabled.getLong("metricId");
    long declared = bus.request(Addresses.resources(daemon.id()), new JsonObject().put("path", CLASS).put("depth", 1))
        .getJsonArray("resources").stream().map(r -> (JsonObject) r)
        .filter(r -> "method".equals(r.getString("kind")) && !r.getString("path").contains("<clinit>")).count();
    assertThat(enabled.getJsonObject("methodsInstrumented").getInteger("x0") + enabled.getInteger("methodsSkipped"))
        .as("every method of the class, instrumented or skipped").isEqualTo((int) declared);
    metrics.awaitValues(calls);
    String done = attached.run("alloc 500");
    metrics.awaitSamples(3);
    metrics.disable(calls);
    long points = TargetJvm.field(done, "points");
    assertThat(metrics.integral(calls)).as("run, alloc and one churn per 100 points")
        .isCloseTo(2 + points / 100.0, within(0.01));
  }

  @Test
  void cpuAndWallOfTheSpinningMethodMatchItsOwnClocks() throws Exception {
    long cpu = enable("cpu", SPIN);
    long wall = enable("wall", SPIN);
    metrics.awaitValues(cpu, wall);
    String done = attached.run("cpu 2000");
    metrics.awaitSettled(cpu, wall);
    long cpuNanos = TargetJvm.field(done, "cpuNanos");
    long wallNanos = TargetJvm.field(done, "wallNanos");
    disableAll(cpu, wall);

    assertThat(metrics.integral(wall) * 1e9).as("wall time inside spin, ±10%").isCloseTo(wallNanos,
        within(wallNanos * 0.10));
    // 20 ms samples over 2 s: ~100 samples, so about ±10% per standard deviation; the bound below is three of
    // them (at two, a run with the whole suite beside it fell outside: 0.78 of the thread's CPU time).
    // JFR samples a Java thread that the OS has preempted as well, so on a loaded machine the
    // samples lie between CPU time and wall time.
    assertThat(metrics.integral(cpu) * 1e9).as("sampled CPU time of spin (thread CPU %d ns, wall %d ns)", cpuNanos,
        wallNanos).isBetween(cpuNanos * 0.7, wallNanos * 1.3);
  }

  @Test
  void syncWaitOfTheContendingMethodIsItsBlockedTime() throws Exception {
    long sync = enable("sync_wait", "<" + CLASS + "/contend(J[J)J>");
    metrics.awaitValues(sync);
    String done = attached.run("monitor 1500");
    metrics.awaitSettled(sync);
    disableAll(sync);
    long blocked = TargetJvm.field(done, "blockedNanos");
    assertThat(metrics.integral(sync) * 1e9).as("blocked entering the monitor, ±15%").isCloseTo(blocked,
        within(blocked * 0.15));
  }

  @Test
  void syncWaitIsTheWaitForAHeldLockAndWaitTimeAlsoTheIdleWorkersWaitForWork() throws Exception {
    long sync = enable("sync_wait", PROGRAM);
    long waits = enable("wait_time", PROGRAM);
    metrics.awaitValues(sync, waits);
    String done = attached.run("park 1500");
    metrics.awaitSettled(sync, waits);
    disableAll(sync, waits);
    long lock = TargetJvm.field(done, "lockNanos");
    long idle = TargetJvm.field(done, "idleNanos");
    // the whole program: other threads (the daemon's agent, JFR's) may wait a little too, never on a lock for long
    assertThat(metrics.integral(sync) * 1e9).as("parked on the held lock (%d ns), not the idle poll (%d ns)", lock, idle)
        .isBetween(lock * 0.85, lock * 1.15 + 50_000_000);
    assertThat(metrics.integral(waits) * 1e9).as("both waits").isGreaterThan((lock + idle) * 0.85);
  }

  @Test
  void sampledLockWaitingIsTheBlockedAndTheLockParkedTimeNotTheIdleWait() throws Exception {
    long sampled = enable("sync_wait_sampled", PROGRAM);
    metrics.awaitValues(sampled);
    String monitor = attached.run("monitor 1500");
    String park = attached.run("park 1500");
    metrics.awaitSettled(sampled);
    disableAll(sampled);
    long blocked = TargetJvm.field(monitor, "blockedNanos");
    long lock = TargetJvm.field(park, "lockNanos");
    long idle = TargetJvm.field(park, "idleNanos");
    // a sample every 20 ms of each waiting thread over 3 s: a few hundred samples, a few percent of error; a
    // quarter leaves room for the samples a loaded machine's JFR thread runs late
    assertThat(metrics.integral(sampled) * 1e9)
        .as("blocked on the monitor (%d ns) and parked on the held lock (%d ns), not the idle poll (%d ns)", blocked,
            lock, idle)
        .isBetween((blocked + lock) * 0.75, (blocked + lock) * 1.25 + 50_000_000);
  }

  @Test
  void ioWaitOfTheReadingMethodIsItsBlockedTime() throws Exception {
    long io = enable("io_wait", "<" + CLASS + "/readSlowly(Ljava/io/InputStream;)[J>");
    metrics.awaitValues(io);
    String done = attached.run("io 1500");
    metrics.awaitSettled(io);
    disableAll(io);
    long blocked = TargetJvm.field(done, "blockedNanos");
    assertThat(metrics.integral(io) * 1e9).as("blocked in socket reads, ±15%").isCloseTo(blocked,
        within(blocked * 0.15));
  }

  @Test
  void ioTimeOfTheReadingAndTheSyncingMethodIsTheirTimeInsideReadsWritesAndSyncs() throws Exception {
    long read = enable("io_time", "<" + CLASS + "/readSlowly(Ljava/io/InputStream;)[J>");
    metrics.awaitValues(read);
    String done = attached.run("io 3000");
    metrics.awaitSettled(read);
    disableAll(read);
    long blocked = TargetJvm.field(done, "blockedNanos");
    assertThat(metrics.integral(read) * 1e9).as("native-method samples in socket reads, ±25%").isCloseTo(blocked,
        within(blocked * 0.25));

    String syncing = "</Code/dev.bottlenose.tests.workloads/JournalWorkload/syncSlowly(J)J>";
    long sync = enable("io_time", syncing);
    long events = enable("io_wait", syncing);
    metrics.awaitValues(sync);
    done = attached.run("sync 12000");
    metrics.awaitSettled(sync);
    disableAll(sync, events);
    long inIo = TargetJvm.field(done, "ioNanos");
    // a thread in native code a quarter of the time, sampled every 20 ms for 12 s: about 150 samples, a binomial
    // spread of about 7%; JFR takes one of the threads in native code per period, which spreads them wider (6 s
    // of it once came to +35%), so ±30% is allowed over twice the samples
    assertThat(metrics.integral(sync) * 1e9).as("native-method samples in writes and syncs, ±30%").isCloseTo(inIo,
        within(inIo * 0.30));
    assertThat(metrics.integral(events) * 1e9).as("the I/O events see the writes, not the syncs").isLessThan(inIo * 0.5);
  }

  @Test
  void forcedCollectionsShowAsGcTimeNotAgainAsSafepointTimeAndAsManyPauses() throws Exception {
    JsonObject added = bus.request(Addresses.metricsAdd(daemon.id()), new JsonObject().put("fileName", "gc.metrics")
        .put("text", String.join("\n",
            "metric gc_pauses {",
            "  description \"Collector pauses\"",
            "  unit count",
            "  accumulates count of gc_pause",
            "  refine /Process, /Machine",
            "  combine sum",
            "  report total",
            "}")));
    assertThat(added.getJsonArray("added")).containsExactly("gc_pauses");
    long gc = enable("gc_time", PROGRAM);
    long safepoint = enable("safepoint_time", PROGRAM);
    long pauses = enable("gc_pauses", PROGRAM);
    metrics.awaitValues(gc, safepoint, pauses);
    String done = attached.run("gc 1000");
    metrics.awaitSettled(gc, pauses);
    disableAll(gc, safepoint, pauses);
    long forced = TargetJvm.field(done, "gcs");
    double pauseCount = metrics.aligned(pauses).stream().mapToDouble(r -> r.get(pauses)).sum();

    assertThat(metrics.integral(gc)).as("gc time").isPositive();
    assertThat(metrics.integral(safepoint)).as("safepoint time leaves the collections' pauses to gc time, counted once")
        .isLessThan(metrics.integral(gc) / 2);
    assertThat(pauseCount).as("pauses, at least one per System.gc()").isGreaterThanOrEqualTo(forced);
  }

  @Test
  void aMethodCompiledWhileWatchedHasCompileTime() throws Exception {
    long method = enable("jit_compile_time", "<" + CLASS + "/jitted(J)J>");
    long program = enable("jit_compile_time", PROGRAM);
    metrics.awaitValues(method, program);
    attached.run("jit 500");
    metrics.awaitSamples(6);
    disableAll(method, program);
    assertThat(metrics.integral(method)).as("jitted's compilations").isPositive()
        .isLessThanOrEqualTo(metrics.integral(program));
  }

  @Test
  void classLoadingUnderTheLoadingMethodIsMostOfTheTimeSpentLoading() throws Exception {
    long load = enable("class_load_time", "<" + CLASS + "/loadBurst(Ljava/lang/ClassLoader;[J)V>");
    metrics.awaitValues(load);
    String done = attached.run("classload 800");
    metrics.awaitSettled(load);
    disableAll(load);
    long loadNanos = TargetJvm.field(done, "loadNanos");
    // The JFR event times defining the class; the workload's clock also covers finding and reading its bytes.
    assertThat(metrics.integral(load) * 1e9).as("class load time inside loadBurst (%d ns timed around the loads)",
        loadNanos).isBetween(loadNanos * 0.5, loadNanos * 1.1);
  }

  /**
   * Enables {@code metric} at {@code focus}. The daemon refuses a probe into a class whose method a thread seems to
   * be running for long ({@code LongRunningFrames}); a thread that ran one of this workload's methods for seconds and
   * then blocked reading its next command seems to until its CPU time has been seen standing still for 2 s, about
   * 3 s after the command returned, and the previous test may end sooner ({@link Metrics#awaitSettled} needs 1.2 s
   * of zeros), so a probe into that class is retried, for 10 s: the CPU times are read as the daemon's reader takes
   * JFR's flushes, later on a loaded machine.
   */
  private long enable(String metric, String focus) throws Exception {
    long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (true) {
      try {
        return metrics.enable(metric, focus).getLong("metricId");
      } catch (Exception e) {
        if (String.valueOf(e.getMessage()).contains("has been on the stack") && System.nanoTime() < until) {
          Thread.sleep(200);
          continue;
        }
        throw e;
      }
    }
  }

  private void disableAll(long... ids) throws Exception {
    for (long id : ids) {
      metrics.disable(id);
    }
  }
}
