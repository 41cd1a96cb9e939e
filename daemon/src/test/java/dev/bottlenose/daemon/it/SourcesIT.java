package dev.bottlenose.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.daemon.session.Sample;
import dev.bottlenose.daemon.session.SessionException;
import dev.bottlenose.daemon.session.SessionException.Failure;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.SourceInfo;
import dev.bottlenose.daemon.session.SourceValue;
import dev.bottlenose.daemon.session.TargetSession;
import dev.bottlenose.metrics.ProbePlan;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Watched sources on a real JDK 17 target with known answers: each scenario of {@code SourcesWorkload}
 * measures its own truth (CPU time, time a lock was held, bytes), and the source's totals must land within
 * the stated tolerance of it.
 */
class SourcesIT {
  static final SessionOptions OPTIONS = SessionOptions.defaults().withInterval(Duration.ofMillis(200));
  static final String W = SourcesTarget.CLASS;
  static final Set<DaemonRequests.CallGraph.Part> ALL_PARTS = EnumSet.allOf(DaemonRequests.CallGraph.Part.class);
  private static SourcesTarget target;
  private static TargetSession session;

  @BeforeAll
  static void attach() throws Exception {
    target = SourcesTarget.start();
    session = TargetSession.attach(target.pid(), OPTIONS, System.err);
  }

  @AfterAll
  static void close() throws Exception {
    session.close();
    target.close();
  }

  @AfterEach
  void unwatchAll() {
    session.sources().forEach(s -> session.unwatch(s.sourceId()));
  }

  static SourceInfo watch(String event, String code, String thread) {
    Map<String, Object> source = new java.util.LinkedHashMap<>();
    source.put("event", event);
    source.put("code", code);
    source.put("thread", thread);
    return session.watch(source, "it");
  }

  static SourceInfo watchOn(String event, String resource) {
    return session.watch(Map.of("event", event, "resource", resource), "it");
  }

  /**
   * The source's value once its counts are complete through now (the action the caller just ran ended before now: a
   * flush of the target's recording after it has been read) and unchanged from one sample to the next (what the
   * action set off after it ended, a compilation say, has been counted too). Two equal values alone can come
   * before the flush that holds the action's events has been read.
   */
  static SourceValue settled(SourceInfo source) {
    long done = System.currentTimeMillis();
    SourceValue[] last = new SourceValue[1];
    long[] lastSampleAt = {-1};
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(300)).until(() -> {
      Sample sample = session.values().latest();
      SourceValue now = sample == null ? null : sample.source(source.sourceId());
      if (now == null || now.throughMillis() < done || sample.atMillis() == lastSampleAt[0]) {
        return false;
      }
      boolean same = last[0] != null && now.count() == last[0].count() && now.nanos() == last[0].nanos();
      last[0] = now;
      lastSampleAt[0] = sample.atMillis();
      return same;
    });
    return last[0];
  }

  @Test
  void theTargetsJfrRepositoryIsClosedToOtherUsers() throws Exception {
    java.nio.file.Path repository = java.nio.file.Path.of(session.hello().jfrRepository());
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(repository)))
        .as("the mode of " + repository).isEqualTo("rwx------");
  }

  @Test
  void aSpinningMethodGetsTheSamplesAndASleepingOneNone() throws Exception {
    SourceInfo spin = watch("cpu_sample", "exclusive:" + W + "/spin(J)J", null);
    SourceInfo thread = watch("cpu_sample", null, "/Threads/main/sources-spin");
    SourceInfo nap = watch("cpu_sample", "exclusive:" + W + "/napper", null);
    Map<String, Long> truth = target.run("spin 1000");
    long cpu = truth.get("cpu");
    long wall = truth.get("wall");
    SourceValue inSpin = settled(spin);
    SourceValue ofThread = session.values().latest().source(thread.sourceId());
    assertThat(inSpin.count()).as("spin samples of all the spinner thread's").isGreaterThanOrEqualTo(
        (long) (0.9 * ofThread.count()));
    assertThat(inSpin.nanos()).as("samples x 20 ms between the thread's CPU time %d and its wall time %d", cpu, wall)
        .isBetween((long) (0.65 * cpu), (long) (1.15 * wall));
    assertThat(session.values().latest().source(nap.sourceId()).count()).isLessThanOrEqualTo(1);
    assertThat(session.hello().calibration()).containsEntry("samplePeriodNanos", 20_000_000L);
  }

  @Test
  void aMetricAskingForASlowerSamplingPeriodIsSampledAtItAndStillCountsTheTime() throws Exception {
    var metric = session.enableMetric("cpu", "<" + W + "/spin(J)J>", "it", 50L);
    try {
      long source = metric.sourceByItem().values().iterator().next();
      assertThat(session.sources()).anySatisfy(s -> assertThat(s.source()).containsEntry("period", 50L));
      Map<String, Long> truth = target.run("spin 1000");
      SourceValue v = settled(session.sources().stream().filter(s -> s.sourceId() == source).findFirst().orElseThrow());
      long cpu = truth.get("cpu");
      long wall = truth.get("wall");
      assertThat(v.nanos()).as("every sample counts the 50 ms JFR now samples at").isEqualTo(v.count() * 50_000_000L);
      assertThat(v.nanos()).as("samples x 50 ms between the thread's CPU time %d and its wall time %d (at 20 ms"
          + " there would be 2.5 times as many)", cpu, wall).isBetween((long) (0.5 * cpu), (long) (1.5 * wall));
      assertThat(failure(() -> session.enableMetric("cpu", "<>", "it", 0L)).getMessage())
          .isEqualTo("samplePeriodMillis 0 is out of range (1 to 1000 ms)");
    } finally {
      session.disableMetric(metric.metricId());
    }
  }

  @Test
  void theAgentsOwnThreadsAreNotRecordedByJfr() throws Exception {
    assertThat(session.resources("/VM", 0).get(0).attributes()).containsEntry("jfrToolThreads", "excluded");
    // At threshold 0 every socket read of the agent's channel (it waits there for the next request) and every
    // park of its discovery scheduler would be an event with a stack, were its threads recorded.
    SourceInfo reads = watch("socket_read", null, null);
    SourceInfo parks = watch("park", null, null);
    long before = agentThreadEvents();
    target.run("spin 300");
    settled(reads);
    settled(parks);
    assertThat(agentThreadEvents() - before).as("events of bottlenose-* threads in the agent's recording").isZero();
  }

  @Test
  void aPoolsHandOffsRaiseDiscoverysParkThresholdUntilItsParksAreFewAndItComesBackDownAfter() throws Exception {
    long lowest = dev.bottlenose.agent.discovery.DiscoverySettings.CONTENTION_THRESHOLD.toNanos();
    await().atMost(Duration.ofSeconds(30)).until(() -> parkThreshold() == lowest);
    var handoffs = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      try {
        return target.run("handoff 10000");
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    await().atMost(Duration.ofSeconds(9)).until(() -> parkThreshold() > lowest);
    long raised = parkThreshold();
    assertThat(recordingParkThreshold()).as("the park threshold of the agent's recording, as JFR.check shows it")
        .isGreaterThanOrEqualTo(lowest * 2);
    assertThat(recordingParkStacks()).as("discovery's parks from the raised threshold, with their stacks").isTrue();
    SourceInfo every = watch("park", null, null);
    await().atMost(Duration.ofSeconds(5)).until(() -> recordingParkThreshold() == 0);
    assertThat(recordingParkStacks()).as("every park counted for the whole program: no stack at each of them").isFalse();
    session.unwatch(every.sourceId());
    await().atMost(Duration.ofSeconds(5)).until(() -> recordingParkThreshold() > 0);
    assertThat(handoffs.get().get("items")).as("items handed over").isPositive();
    await().atMost(Duration.ofSeconds(30)).until(() -> parkThreshold() == lowest);
    await().atMost(Duration.ofSeconds(10)).until(() -> recordingParkThreshold() == lowest);
    assertThat(raised).isLessThanOrEqualTo(
        dev.bottlenose.agent.discovery.DiscoverySettings.MAX_CONTENTION_THRESHOLD.toNanos());
  }

  /** The threshold discovery's parks are recorded from, as the daemon holds it. */
  private static long parkThreshold() {
    Map<?, ?> jfr = (Map<?, ?>) session.status().get("jfr");
    return ((Number) ((Map<?, ?>) jfr.get("contentionThresholdNanos")).get("jdk.ThreadPark")).longValue();
  }

  /** The lowest park threshold of the target's running recordings, read with the JDK's {@code jcmd JFR.check}. */
  private static long recordingParkThreshold() throws Exception {
    String out = recordingSettings();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "\\(jdk\\.ThreadPark\\)\\s*\\[threshold=([0-9]+) (ns|us|ms|s),").matcher(out);
    long lowest = Long.MAX_VALUE;
    while (m.find()) {
      long n = Long.parseLong(m.group(1));
      lowest = Math.min(lowest, switch (m.group(2)) {
        case "ns" -> n;
        case "us" -> n * 1_000;
        case "ms" -> n * 1_000_000;
        default -> n * 1_000_000_000;
      });
    }
    assertThat(lowest).as("a recording with parks in %s", out).isLessThan(Long.MAX_VALUE);
    return lowest;
  }

  /** Whether the target's one running recording, the agent's, takes a stack at each park. */
  private static boolean recordingParkStacks() throws Exception {
    String out = recordingSettings();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "\\(jdk\\.ThreadPark\\)\\s*\\[threshold=[^,]*,stackTrace=(true|false)").matcher(out);
    assertThat(m.find()).as("a recording with parks in %s", out).isTrue();
    boolean stacks = Boolean.parseBoolean(m.group(1));
    assertThat(m.find()).as("one recording with parks in %s", out).isFalse();
    return stacks;
  }

  /** The settings of the target's running recordings, as the JDK's {@code jcmd JFR.check verbose=true} shows them. */
  private static String recordingSettings() throws Exception {
    Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(target.pid()), "JFR.check", "verbose=true").redirectErrorStream(true).start();
    String out = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    jcmd.waitFor();
    return out;
  }

  private static long agentThreadEvents() {
    Map<?, ?> jfr = (Map<?, ?>) session.status().get("jfr");
    return ((Number) jfr.get("agentThreadEvents")).longValue();
  }

  @Test
  void monitorBlockingIsTheTimeTheHolderHeldTheMonitor() throws Exception {
    SourceInfo blocked = watch("monitor_enter", "inclusive:" + W + "/contend", null);
    long held = target.run("monitor 1200").get("held");
    SourceValue v = settled(blocked);
    assertThat(v.count()).isPositive();
    assertThat((double) v.nanos()).as("blocked vs held %d ns", held).isCloseTo(held, within(0.2 * held));
  }

  @Test
  void resourceFiltersCountOnlyTheEventsAboutThatObject() throws Exception {
    SourceInfo objects = watchOn("monitor_enter", "/SyncObjects/monitors/java.lang.Object");
    SourceInfo strings = watchOn("monitor_enter", "/SyncObjects/monitors/java.lang.String");
    SourceInfo locks = watchOn("park", "/SyncObjects/locks/java.util.concurrent.locks.ReentrantLock$NonfairSync");
    SourceInfo monitors = watchOn("park", "/SyncObjects/monitors");
    SourceInfo files = watchOn("file_read", "/IO/file");
    SourceInfo nowhere = watchOn("file_read", "/IO/file/\\/nowhere");
    long held = target.run("monitor 600").get("held");
    target.run("park 600");
    target.run("fileread 10 4096");
    SourceValue onObjects = settled(objects);
    assertThat((double) onObjects.nanos()).as("blocked vs held %d ns", held).isCloseTo(held, within(0.2 * held));
    assertThat(session.values().latest().source(strings.sourceId()).count()).isZero();
    assertThat(session.values().latest().source(locks.sourceId()).count()).isPositive();
    assertThat(session.values().latest().source(monitors.sourceId()).count()).isZero();
    assertThat(session.values().latest().source(files.sourceId()).count()).isGreaterThanOrEqualTo(10);
    assertThat(session.values().latest().source(nowhere.sourceId()).count()).isZero();
    assertThat(session.values().latest().source(files.sourceId()).throughMillis()).isGreaterThan(0);
  }

  @Test
  void lockParkingIsTheTimeTheHolderHeldTheLockAndItsStackIsInTheSyncGraph() throws Exception {
    SourceInfo parked = watch("park", "inclusive:" + W + "/contendLock", null);
    long held = target.run("park 1200").get("held");
    SourceValue v = settled(parked);
    assertThat(v.count()).isPositive();
    assertThat((double) v.nanos()).as("parked vs held %d ns", held).isCloseTo(held, within(0.2 * held));

    Map<String, Object> graph = session.callGraph(W, 100, "sync", ALL_PARTS);
    assertThat(childPaths(graph)).as("methods on the parked stack: %s", graph)
        .anyMatch(p -> p.startsWith(W + "/contendLock("));
  }

  @Test
  void sleepsAreCountedAndTimed() throws Exception {
    SourceInfo sleeps = watch("sleep", "inclusive:" + W + "/sleeper", null);
    long slept = target.run("sleep 50").get("slept");
    SourceValue v = settled(sleeps);
    assertThat(v.count()).isEqualTo(50);
    assertThat((double) v.nanos()).isCloseTo(slept, within(0.1 * slept));
  }

  @Test
  void sleepsAreInTheWaitGraphWeighingTheTimeSlept() throws Exception {
    String sleeper = W + "/sleeper(II)J";
    long slept = target.run("sleep 50").get("slept");
    long micros = slept / 1000;
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      Map<String, Object> graph = session.callGraph(sleeper, 100, "wait", ALL_PARTS);
      long total = ((Number) graph.get("total")).longValue();
      assertThat(total).as("microseconds waited in %s (slept %d µs; halved every 30 s)", sleeper, micros)
          .isBetween(micros * 45 / 100, micros * 3);
      assertThat(childPaths(graph)).as("its callees on the wait graph").anyMatch(p -> p.startsWith(W + "/pause("));
    });
  }

  @Test
  void eventsRecordedOnlyForASourceAreChargedAsTheProgramsCost() throws Exception {
    long stackless = Math.round(ProbePlan.WATCHED_STACKLESS_EVENT_NANOS);
    long since = System.currentTimeMillis();
    SourceInfo sleeps = watch("sleep", null, null);
    target.run("sleep 50 2");
    settled(sleeps);
    assertThat(chargedEventNanos(since))
        .as("50 sleeps of 2 ms, which JFR records for the source alone (discovery records those of 10 ms and more)"
            + " and without stacks, at %d ns each", stackless)
        .isBetween(50 * stackless, 60 * stackless);
    session.unwatch(sleeps.sourceId());

    long each = Math.round(ProbePlan.WATCHED_EVENT_NANOS);
    since = System.currentTimeMillis();
    SourceInfo blocked = watch("monitor_enter", null, null);
    target.run("monitor 600");
    long entries = settled(blocked).count();
    assertThat(entries).isPositive();
    assertThat(chargedEventNanos(since))
        .as("%d contended entries, among them a 600 ms block, which discovery's 0.2 ms threshold records anyway",
            entries)
        .isLessThan(entries * each);
  }

  private static long chargedEventNanos(long sinceMillis) {
    return session.values().history(600).stream().filter(s -> s.atMillis() > sinceMillis)
        .mapToLong(s -> s.cost().eventNanos()).sum();
  }

  @Test
  void fileReadsAreCountedWithTheirBytesForTheCallingMethod() throws Exception {
    SourceInfo reads = watch("file_read", "inclusive:" + W + "/readFile", null);
    SourceInfo elsewhere = watch("file_read", "inclusive:" + W + "/readSocket", null);
    assertThat(target.run("fileread 40 4096").get("bytes")).isEqualTo(40 * 4096);
    SourceValue v = settled(reads);
    assertThat(v.count()).isEqualTo(40);
    assertThat(v.bytes()).isEqualTo(40 * 4096);
    assertThat(session.values().latest().source(elsewhere.sourceId()).count()).isZero();
  }

  @Test
  void socketReadsAndWritesOnALoopbackPair() throws Exception {
    SourceInfo reads = watch("socket_read", "inclusive:" + W + "/readSocket", null);
    SourceInfo writes = watch("socket_write", "inclusive:" + W + "/writeSocket", "/Threads/main/main");
    long readCalls = target.run("socket 30 1000").get("reads");
    SourceValue r = settled(reads);
    assertThat(r.bytes()).isEqualTo(30_000);
    assertThat(r.count()).isEqualTo(readCalls);
    SourceValue w = session.values().latest().source(writes.sourceId());
    assertThat(w.count()).isEqualTo(30);
    assertThat(w.bytes()).isEqualTo(30_000);
  }

  @Test
  void forcedCollectionsAreGcPauses() throws Exception {
    SourceInfo gc = watch("gc_pause", null, null);
    target.run("gc 3");
    SourceValue v = settled(gc);
    assertThat(v.count()).isGreaterThanOrEqualTo(3);
    assertThat(v.nanos()).isPositive();
  }

  @Test
  void aMethodThatGetsHotIsCompiledAndItsClassIsInTheJitGraph() throws Exception {
    SourceInfo jit = watch("jit_compile", "exclusive:" + W + "/hot(I)J", null);
    target.run("jit");
    SourceValue v = settled(jit);
    assertThat(v.count()).isGreaterThanOrEqualTo(1);
    assertThat(v.bytes()).as("compiled code size").isPositive();

    Map<String, Object> graph = session.callGraph("/Code/" + SourcesTarget.PACKAGE, 100, "jit", ALL_PARTS);
    assertThat(childPaths(graph)).as("classes compiled in the package: %s", graph).contains(W);
    Map<String, Object> whole = session.callGraph("/Code", 10_000, "jit", ALL_PARTS);
    assertThat(childPaths(whole)).as("packages compiled").contains("/Code/" + SourcesTarget.PACKAGE)
        .noneMatch(p -> p.startsWith("/Code/dev.bottlenose.agent") || p.startsWith("/Code/dev.bottlenose.model"));
    assertThat((Long) whole.get("samples")).as("compilations counted").isGreaterThanOrEqualTo(1);
  }

  @SuppressWarnings("unchecked")
  private static java.util.List<String> childPaths(Map<String, Object> graph) {
    return ((java.util.List<Map<String, Object>>) graph.get("children")).stream().map(c -> (String) c.get("path")).toList();
  }

  @Test
  void allocationSamplesEstimateTheBytesAllocated() throws Exception {
    SourceInfo alloc = watch("alloc_sample", "inclusive:" + W + "/allocator", null);
    long allocated = target.run("alloc 1000").get("allocated");
    SourceValue v = settled(alloc);
    assertThat(v.bytes()).as("sampled weight vs %d bytes allocated", allocated)
        .isBetween(allocated / 3, allocated * 3);
  }

  @Test
  void fileWritesMonitorWaitsClassLoadsAndSafepoints() throws Exception {
    SourceInfo writes = watch("file_write", "caller:" + W + "/writeFile", null);
    SourceInfo inWrite = watch("file_write", "exclusive:/Code/java.io/RandomAccessFile/write([B)V", null);
    SourceInfo waits = watch("monitor_wait", "inclusive:" + W + "/waiter", "/Threads/main/main");
    SourceInfo loads = watch("class_load", "inclusive:" + W + "/loadClasses", null);
    SourceInfo safepoints = watch("safepoint", null, null);
    target.run("misc 20");
    SourceValue w = settled(writes);
    assertThat(w.count()).isEqualTo(20);
    assertThat(w.bytes()).isEqualTo(2000);
    assertThat(session.values().latest().source(inWrite.sourceId()).count()).as("top frame").isGreaterThanOrEqualTo(20);
    SourceValue waited = session.values().latest().source(waits.sourceId());
    assertThat(waited.count()).isEqualTo(20);
    assertThat(waited.nanos()).isGreaterThanOrEqualTo(20 * 4_000_000L);
    assertThat(session.values().latest().source(loads.sourceId()).count()).isGreaterThanOrEqualTo(3);
    assertThat(session.values().latest().source(safepoints.sourceId()).count()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void badSourcesAreRefusedNamingWhatIsWrong() {
    assertThat(refused("gc_storm", null, null)).contains("unknown event 'gc_storm'").contains("cpu_sample");
    assertThat(refused("cpu_sample", "exclusive:/Code/a/B/m(", null)).contains("code 'exclusive:/Code/a/B/m(' is not a constraint");
    assertThat(refused("cpu_sample", "sideways:/Code/a", null)).contains("sideways");
    assertThat(refused("cpu_sample", "/Threads/main", null)).contains("must name a /Code package, class or method");
    assertThat(refused("gc_pause", "/Code/a", null)).contains("code: gc_pause");
    assertThat(refused("gc_pause", null, "/Threads/main")).contains("thread: gc_pause");
    assertThat(refused("jit_compile", "caller:/Code/a/B/m", null)).contains("not caller:");
    SessionException form = failure(() -> session.watch(Map.of("event", "park", "form", "interpreted"), "it"));
    assertThat(form.getMessage()).contains("form: only cpu_sample");
    SessionException unknownForm = failure(() -> session.watch(Map.of("event", "cpu_sample", "form", "c3"), "it"));
    assertThat(unknownForm.getMessage()).contains("unknown form 'c3'");
    SessionException field = failure(() -> session.watch(Map.of("event", "park", "mode", "x"), "it"));
    assertThat(field.getMessage()).contains("unknown field 'mode'");
    assertThat(failure(() -> session.unwatch(999)).failure()).isEqualTo(Failure.NOT_FOUND);
    assertThat(session.sources()).isEmpty();
    assertThat(session.sourceLedger()).isEmpty();
  }

  private static String refused(String event, String code, String thread) {
    SessionException e = failure(() -> watch(event, code, thread));
    assertThat(e.failure()).isEqualTo(Failure.BAD_INPUT);
    return e.getMessage();
  }

  static SessionException failure(Runnable r) {
    try {
      r.run();
    } catch (SessionException e) {
      return e;
    }
    throw new AssertionError("expected a SessionException");
  }

  @Test
  void unwatchStopsCountingAndASessionsEndDropsItsSources() throws Exception {
    SourceInfo mine = watch("sleep", "inclusive:" + W + "/sleeper", null);
    target.run("sleep 5");
    assertThat(settled(mine).count()).isEqualTo(5);
    session.unwatch(mine.sourceId());
    await().atMost(Duration.ofSeconds(5)).until(() -> {
      Sample s = session.values().latest();
      return s.source(mine.sourceId()) == null;
    });
    assertThat(session.sourceLedger()).isEmpty();
    try (TargetSession other = TargetSession.attach(target.pid(), OPTIONS, System.err)) {
      SourceInfo theirs = other.watch(Map.of("event", "sleep"), "other");
      assertThat(session.sourceLedger()).singleElement().satisfies(e -> {
        assertThat(e).containsEntry("sourceId", theirs.sourceId()).doesNotContainKey("askedBy");
        assertThat(e.get("requester").toString()).contains("#");
      });
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> session.sourceLedger().isEmpty());
  }
}
