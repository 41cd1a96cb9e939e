package dev.bottlenose.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.agent.sources.SourceEvent;
import dev.bottlenose.agent.wire.SourceSpec;
import dev.bottlenose.daemon.attach.CompiledBeforeAttach;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Counting real execution samples of this JVM, each thread's samples weighted by the CPU time it used. */
class SourceCounterTest {
  private static final long PERIOD = 10_000_000;
  private static List<RecordedEvent> samples;

  @BeforeAll
  static void recordASpinningThread() throws Exception {
    Path file = Files.createTempFile("bottlenose-samples", ".jfr");
    AtomicBoolean spinning = new AtomicBoolean(true);
    Thread spinner = new Thread(() -> {
      long x = 1;
      while (spinning.get()) {
        x = x * 31 + Long.numberOfTrailingZeros(x);
      }
    }, "spinner");
    try (Recording r = new Recording()) {
      r.enable("jdk.ExecutionSample").withPeriod(Duration.ofNanos(PERIOD)).withStackTrace();
      r.start();
      spinner.start();
      Thread.sleep(1500);
      spinning.set(false);
      spinner.join();
      r.stop();
      r.dump(file);
    }
    samples = RecordingFile.readAllEvents(file).stream().filter(e -> e.getEventType().getName().equals("jdk.ExecutionSample"))
        .filter(e -> "spinner".equals(e.getThread("sampledThread").getJavaName())).toList();
    Files.delete(file);
  }

  @Test
  void eachStretchsSamplesShareTheirThreadsCpuTime() {
    assertThat(samples).as("samples of the spinning thread").hasSizeGreaterThan(12);
    AtomicLong cpu = new AtomicLong(1_000_000_000);
    SourceCounter counter = new SourceCounter(PERIOD, tid -> cpu.get());
    counter.add(1, SourceSpec.fromMap(Map.of("event", "cpu_sample", "code", "inclusive:/Code/java.lang/Thread")), 0);
    int third = samples.size() / 3;
    feed(counter, samples.subList(0, third));
    counter.flushed(System.currentTimeMillis());
    assertThat(nanos(counter)).as("a thread's first stretch: one period per sample").isEqualTo(third * PERIOD);

    cpu.addAndGet(third * PERIOD / 4);
    feed(counter, samples.subList(third, 2 * third));
    counter.flushed(System.currentTimeMillis());
    assertThat(nanos(counter)).as("then its CPU time, shared among the samples")
        .isEqualTo(third * PERIOD + third * PERIOD / 4);

    cpu.addAndGet(1_000 * PERIOD * third);
    feed(counter, samples.subList(2 * third, 3 * third));
    counter.flushed(System.currentTimeMillis());
    assertThat(nanos(counter)).as("at most %s periods a sample", SourceCounter.MAX_SCALE)
        .isEqualTo(third * PERIOD + third * PERIOD / 4 + (long) (SourceCounter.MAX_SCALE * third * PERIOD));
    assertThat(counter.totals().get(0)).containsEntry("count", 3L * third).containsEntry("sourceId", 1L);
  }

  @Test
  void theWholeProgramAndItsThreadsCountTheirThreadsCpuTimeWhateverTheSamplesSay() {
    AtomicLong cpu = new AtomicLong(1_000_000_000);
    long tid = samples.get(0).getThread("sampledThread").getOSThreadId();
    SourceCounter counter = new SourceCounter(PERIOD, t -> cpu.get(), () -> List.of(tid));
    counter.add(1, SourceSpec.fromMap(Map.of("event", "cpu_sample")), 0);
    counter.add(2, SourceSpec.fromMap(Map.of("event", "cpu_sample", "thread", "/Threads/main/spinner")), 0);
    counter.add(3, SourceSpec.fromMap(Map.of("event", "cpu_sample", "thread", "/Threads/main/someone-else")), 0);
    counter.add(4, SourceSpec.fromMap(Map.of("event", "cpu_sample", "code", "inclusive:/Code/java.lang/Thread")), 0);
    feed(counter, samples.subList(0, 2));
    counter.flushed(System.currentTimeMillis());

    // a stretch in which the thread used a second of CPU and JFR sampled it twice (it ran in the VM, say)
    cpu.addAndGet(1_000_000_000);
    feed(counter, samples.subList(2, 4));
    counter.flushed(System.currentTimeMillis());
    // and one in which it used half a second and was not sampled at all
    cpu.addAndGet(500_000_000);
    counter.flushed(System.currentTimeMillis());

    List<Map<String, Object>> totals = counter.totals();
    long first = 2 * PERIOD;
    assertThat(totals.get(0)).as("the whole program: the thread's CPU time").containsEntry("count", 4L)
        .containsEntry("nanos", first + 1_500_000_000L);
    assertThat(totals.get(1)).as("the thread itself").containsEntry("nanos", first + 1_500_000_000L);
    assertThat(totals.get(2)).as("another thread").containsEntry("nanos", 0L);
    assertThat(totals.get(3)).as("code: shared among its samples, at most %s periods each", SourceCounter.MAX_SCALE)
        .containsEntry("nanos", first + (long) (2 * SourceCounter.MAX_SCALE * PERIOD));
  }

  @Test
  void classLoadingIsTheJvmsOwnTotalSharedAmongTheClassesDefined() throws Exception {
    List<RecordedEvent> defines = recordDefines("definer", 40);
    assertThat(defines).as("classes the definer defined").hasSizeGreaterThanOrEqualTo(40);
    AtomicLong loading = new AtomicLong(5_000_000_000L);
    SourceCounter counter = new SourceCounter(PERIOD, tid -> -1);
    counter.classLoadingTime(loading::get);
    counter.add(1, SourceSpec.fromMap(Map.of("event", "class_load")), 0);
    counter.add(2, SourceSpec.fromMap(Map.of("event", "class_load", "thread", "/Threads/main/definer")), 0);
    counter.add(3, SourceSpec.fromMap(Map.of("event", "class_load", "thread", "/Threads/main/someone-else")), 0);
    counter.add(4, SourceSpec.fromMap(Map.of("event", "class_load", "code",
        "inclusive:/Code/dev.bottlenose.daemon.jfr/SourceCounterTest")), 0);
    counter.flushed(System.currentTimeMillis());

    feed(counter, defines);
    loading.addAndGet(300_000_000);
    counter.flushed(System.currentTimeMillis());

    List<Map<String, Object>> totals = counter.totals();
    assertThat(totals.get(0)).as("the whole program: all of the JVM's loading time, from the counter, with no event"
        + " of its own to pay for").containsEntry("nanos", 300_000_000L).containsEntry("count", 0L);
    assertThat(totals.get(1)).as("the thread that defined them all").containsEntry("nanos", 300_000_000L)
        .containsEntry("count", (long) defines.size());
    assertThat(totals.get(2)).as("another thread").containsEntry("nanos", 0L).containsEntry("count", 0L);
    assertThat(totals.get(3)).as("the code that defined them").containsEntry("nanos", 300_000_000L);
  }

  @Test
  void classDefinitionsShareTheJvmsTotalByTheClassTheyAreChargedTo() throws Exception {
    List<RecordedEvent> defines = recordDefines("loader-host", 40);
    String loader = "dev.bottlenose.daemon.jfr.ClassDefiner$OneClass";
    long byLoader = defines.stream().filter(e -> loader.equals(SourceEvent.chargedClass(e))).count();
    assertThat(byLoader).as("the classes the plugin loader defined, without stacks").isEqualTo(40);
    AtomicLong loading = new AtomicLong(5_000_000_000L);
    SourceCounter counter = new SourceCounter(PERIOD, tid -> -1);
    counter.classLoadingTime(loading::get);
    counter.add(1, SourceSpec.fromMap(Map.of("event", "class_define")), 0);
    counter.add(2, SourceSpec.fromMap(Map.of("event", "class_define", "code",
        "exclusive:/Code/dev.bottlenose.daemon.jfr/ClassDefiner$OneClass")), 0);
    counter.add(3, SourceSpec.fromMap(Map.of("event", "class_define", "code", "exclusive:/Code/java.lang")), 0);
    counter.add(4, SourceSpec.fromMap(Map.of("event", "class_define", "thread", "/Threads/main/loader-host")), 0);
    counter.add(5, SourceSpec.fromMap(Map.of("event", "class_load", "thread", "/Threads/main/loader-host")), 0);
    counter.flushed(System.currentTimeMillis());

    feed(counter, defines);
    loading.addAndGet(300_000_000);
    counter.flushed(System.currentTimeMillis());

    List<Map<String, Object>> totals = counter.totals();
    assertThat(totals.get(0)).as("the whole program: all of the JVM's loading time").containsEntry("nanos", 300_000_000L)
        .containsEntry("count", 0L);
    assertThat(totals.get(1)).as("the loader's class: its share of the classes defined")
        .containsEntry("nanos", Math.round(300_000_000.0 * byLoader / defines.size())).containsEntry("count", byLoader);
    assertThat(totals.get(2)).as("a package that defined none").containsEntry("nanos", 0L);
    assertThat(totals.get(3)).as("the thread that defined them all").containsEntry("nanos", 300_000_000L);
    assertThat(totals.get(4)).as("class_load beside it: each event counted once for each kind of source")
        .containsEntry("nanos", 300_000_000L).containsEntry("count", (long) defines.size());
  }

  @Test
  void aClassTheJdksLoaderDefinesIsChargedToItself() throws Exception {
    Path file = Files.createTempFile("bottlenose-defines", ".jfr");
    try (Recording r = new Recording()) {
      r.enable("jdk.ClassDefine");
      r.start();
      Class.forName(JDK_CLASS);
      r.stop();
      r.dump(file);
    }
    List<String> charged = RecordingFile.readAllEvents(file).stream()
        .filter(e -> e.getEventType().getName().equals("jdk.ClassDefine")).map(SourceEvent::chargedClass).toList();
    Files.delete(file);
    assertThat(charged).as("defined by the JDK's platform loader").contains(JDK_CLASS);
  }

  /** A class of the JDK that nothing else here loads. */
  private static final String JDK_CLASS = "javax.sql.rowset.serial.SerialArray";

  @Test
  void withoutTheJvmsTotalClassLoadingIsTheVmsOwnLoadsDurations() throws Exception {
    List<RecordedEvent> defines = recordDefines("definer-2", 5);
    SourceCounter counter = new SourceCounter(PERIOD, tid -> -1);
    counter.classLoadingTime(() -> -1);
    counter.add(1, SourceSpec.fromMap(Map.of("event", "class_load")), 0);
    feed(counter, defines);
    counter.flushed(System.currentTimeMillis());
    assertThat(counter.totals().get(0)).as("defines alone count nothing").containsEntry("count", 0L)
        .containsEntry("nanos", 0L);
  }

  /** The {@code jdk.ClassDefine} events of a thread named {@code name} that defines {@code n} classes from bytes. */
  private static List<RecordedEvent> recordDefines(String name, int n) throws Exception {
    ClassDefiner definer = new ClassDefiner();
    definer.define(1);  // the application's loader defines the definer's own classes first, before the recording
    Path file = Files.createTempFile("bottlenose-defines", ".jfr");
    try (Recording r = new Recording()) {
      r.enable("jdk.ClassDefine").withStackTrace();
      r.start();
      Thread thread = new Thread(() -> definer.define(n), name);
      thread.start();
      thread.join();
      r.stop();
      r.dump(file);
    }
    List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
        .filter(e -> e.getEventType().getName().equals("jdk.ClassDefine"))
        .filter(e -> name.equals(e.getThread("eventThread").getJavaName())).toList();
    Files.delete(file);
    return events;
  }

  @Test
  void aThreadWithoutSamplesInAStretchIsScaledFromItsLastKnownCpuTime() {
    AtomicLong cpu = new AtomicLong(1_000_000_000);
    SourceCounter counter = new SourceCounter(PERIOD, tid -> cpu.get());
    counter.add(1, SourceSpec.fromMap(Map.of("event", "cpu_sample")), 0);
    int half = samples.size() / 2;
    feed(counter, samples.subList(0, half));
    counter.flushed(System.currentTimeMillis());
    counter.flushed(System.currentTimeMillis());

    cpu.addAndGet(2 * half * PERIOD);
    feed(counter, samples.subList(half, 2 * half));
    counter.flushed(System.currentTimeMillis());

    assertThat(nanos(counter)).as("first stretch one period a sample, then its CPU time across an empty stretch")
        .isEqualTo(half * PERIOD + 2 * half * PERIOD);
  }

  @Test
  void aLiveThreadsFirstSamplesAfterAnIdleStretchAreScaled() {
    AtomicLong cpu = new AtomicLong(1_000_000_000);
    long tid = samples.get(0).getThread("sampledThread").getOSThreadId();
    SourceCounter counter = new SourceCounter(PERIOD, t -> cpu.get(), () -> List.of(tid));
    counter.add(1, SourceSpec.fromMap(Map.of("event", "cpu_sample")), 0);
    counter.flushed(System.currentTimeMillis());

    cpu.addAndGet(2 * samples.size() * PERIOD);
    feed(counter, samples);
    counter.flushed(System.currentTimeMillis());

    assertThat(nanos(counter)).as("its CPU time since the idle flush, not one period a sample")
        .isEqualTo(2 * samples.size() * PERIOD);
  }

  @Test
  void withoutThreadCpuTimesEachSampleIsOnePeriod() {
    SourceCounter counter = new SourceCounter(PERIOD, tid -> -1);
    counter.add(7, SourceSpec.fromMap(Map.of("event", "cpu_sample", "code", "exclusive:/Code/no.such/Thing")), 0);
    counter.add(8, SourceSpec.fromMap(Map.of("event", "cpu_sample")), 0);
    feed(counter, samples);
    counter.flushed(System.currentTimeMillis());
    feed(counter, samples);
    counter.flushed(System.currentTimeMillis());
    assertThat(counter.totals()).hasSize(2);
    assertThat(counter.totals().get(0)).containsEntry("sourceId", 7L).containsEntry("count", 0L).containsEntry("nanos", 0L);
    assertThat(counter.totals().get(1)).containsEntry("count", 2L * samples.size())
        .containsEntry("nanos", 2L * samples.size() * PERIOD);
    counter.remove(8);
    assertThat(counter.totals()).hasSize(1);
  }

  @Test
  void theJdksHousekeepingThreadsWaitsAreNotTheProgramsSynchronisation() throws Exception {
    Path file = Files.createTempFile("bottlenose-waits", ".jfr");
    Object lock = new Object();
    Runnable waitOnce = () -> {
      synchronized (lock) {
        try {
          lock.wait(60);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
    try (Recording r = new Recording()) {
      r.enable("jdk.JavaMonitorWait").withThreshold(Duration.ZERO);
      r.start();
      for (String name : List.of("Common-Cleaner", "worker", "bottlenose-sampler", "JFR Periodic Tasks")) {
        Thread t = new Thread(waitOnce, name);
        t.start();
        t.join();
      }
      r.stop();
      r.dump(file);
    }
    String self = Thread.currentThread().getName();
    List<RecordedEvent> waits = RecordingFile.readAllEvents(file).stream()
        .filter(e -> e.getEventType().getName().equals("jdk.JavaMonitorWait"))
        .filter(e -> !self.equals(e.getThread("eventThread").getJavaName())).toList(); // not this thread's joins
    Files.delete(file);
    SourceCounter counter = new SourceCounter(PERIOD, tid -> -1);
    counter.add(1, SourceSpec.fromMap(Map.of("event", "monitor_wait")), 0);

    feed(counter, waits);

    assertThat(waits).as("recorded from all four").hasSizeGreaterThanOrEqualTo(4);
    assertThat(counter.totals().get(0)).as("only the worker's wait").containsEntry("count", 1L);
    assertThat(nanos(counter)).isGreaterThanOrEqualTo(50_000_000L);
  }

  @Test
  void aParkOnAHeldLockIsContentionAndAParkWaitingForWorkIsNot() throws Exception {
    Path file = Files.createTempFile("bottlenose-parks", ".jfr");
    java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
    java.util.concurrent.LinkedBlockingQueue<Object> queue = new java.util.concurrent.LinkedBlockingQueue<>();
    Thread contender = new Thread(() -> {
      lock.lock();
      lock.unlock();
    }, "contender");
    Thread idle = new Thread(() -> {
      try {
        queue.poll(80, java.util.concurrent.TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "idle-worker");
    try (Recording r = new Recording()) {
      r.enable("jdk.ThreadPark").withThreshold(Duration.ZERO);
      r.start();
      lock.lock();
      try {
        contender.start();
        idle.start();
        idle.join();
      } finally {
        lock.unlock();
      }
      contender.join();
      r.stop();
      r.dump(file);
    }
    List<RecordedEvent> parks = RecordingFile.readAllEvents(file).stream()
        .filter(e -> e.getEventType().getName().equals("jdk.ThreadPark")).toList();
    Files.delete(file);
    assertThat(parkedNanos("lock_park", parks, "contender"))
        .as("the contender parked on the lock this thread held through the idle poll").isGreaterThanOrEqualTo(60_000_000L);
    assertThat(parkedNanos("lock_park", parks, "idle-worker")).as("the idle worker's poll waited on a condition, not a lock")
        .isZero();
    assertThat(parkedNanos("park", parks, "idle-worker")).as("yet it parked").isGreaterThanOrEqualTo(60_000_000L);
  }

  private static long parkedNanos(String event, List<RecordedEvent> parks, String thread) {
    SourceCounter counter = new SourceCounter(PERIOD, tid -> -1);
    counter.add(1, SourceSpec.of(event), 0);
    feed(counter, parks.stream().filter(e -> thread.equals(e.getThread("eventThread").getJavaName())).toList());
    return nanos(counter);
  }

  @Test
  void theJitCompilingBottlenosesOwnCodeIsNotTheProgramsCompileTime() throws Exception {
    Path file = Files.createTempFile("bottlenose-compiles", ".jfr");
    long sink = 0;
    try (Recording r = new Recording()) {
      r.enable("jdk.Compilation").withThreshold(Duration.ZERO);
      r.start();
      for (int i = 0; i < 300_000; i++) {
        sink += toolStep(i) + com.example.HotLoop.step(i);
      }
      r.stop();
      r.dump(file);
    }
    List<RecordedEvent> compiles = RecordingFile.readAllEvents(file).stream()
        .filter(e -> e.getEventType().getName().equals("jdk.Compilation")).toList();
    Files.delete(file);
    long tool = compiles.stream().filter(SourceCounter::isToolCode).count();
    SourceCounter counter = new SourceCounter(PERIOD, tid -> -1);
    counter.add(1, SourceSpec.fromMap(Map.of("event", "jit_compile")), 0);

    feed(counter, compiles);

    assertThat(sink).isNotZero();
    assertThat(compiles).as("this class's toolStep, in a Bottlenose package, was compiled").anySatisfy(e ->
        assertThat(((jdk.jfr.consumer.RecordedMethod) e.getValue("method")).getName()).isEqualTo("toolStep"));
    assertThat(compiles).as("and the program's HotLoop.step").anySatisfy(e ->
        assertThat(((jdk.jfr.consumer.RecordedMethod) e.getValue("method")).getType().getName())
            .isEqualTo("com.example.HotLoop"));
    assertThat(counter.totals().get(0)).as("all but the %d compilations of Bottlenose's code", tool)
        .containsEntry("count", compiles.size() - tool);
  }

  @Test
  void theJitRecompilingAClassTheToolsProbesChangedIsTheToolsWake() throws Exception {
    long[] sink = {0};
    long before = System.currentTimeMillis();
    List<RecordedEvent> compiles = compilationsDuring(() -> {
      for (int i = 0; i < 300_000; i++) {
        sink[0] += wakeStep(i);
      }
    });
    String changedClass = SourceCounterTest.class.getName();
    long changed = compiles.stream().filter(e -> ((jdk.jfr.consumer.RecordedMethod) e.getValue("method")).getType()
        .getName().equals(changedClass)).count();
    long tool = compiles.stream().filter(SourceCounter::isToolCode).count();

    SourceCounter changedThen = new SourceCounter(PERIOD, tid -> -1);
    changedThen.add(1, SourceSpec.fromMap(Map.of("event", "jit_compile")), 0);
    changedThen.changedByTool((cls, at) -> cls.equals(changedClass) && at >= before);
    feed(changedThen, compiles);
    SourceCounter changedLater = new SourceCounter(PERIOD, tid -> -1);
    changedLater.add(1, SourceSpec.fromMap(Map.of("event", "jit_compile")), 0);
    changedLater.changedByTool((cls, at) -> cls.equals(changedClass) && at > System.currentTimeMillis());
    feed(changedLater, compiles);

    assertThat(sink[0]).isNotZero();
    assertThat(changed).as("wakeStep was compiled").isPositive();
    assertThat(changedThen.totals().get(0)).as("the %d compilations of a class while the tool had changed it are not"
        + " the program's", changed).containsEntry("count", compiles.size() - tool - changed);
    assertThat(changedLater.totals().get(0)).as("nor the tool's own, but the rest are")
        .containsEntry("count", compiles.size() - tool);
  }

  @Test
  void theJitCompilingAgainWhatItHadCompiledBeforeTheAttachIsTheAttachsWake() throws Exception {
    long[] sink = {0};
    List<RecordedEvent> compiles = compilationsDuring(() -> {
      for (int i = 0; i < 300_000; i++) {
        sink[0] += attachStep(i);
      }
    });
    // This JVM's code list, read by the JDK's jcmd as the daemon reads a target's before attaching: attachStep's
    // code is in it, so compiling attachStep again is what an attach that threw the code away would cause.
    Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(ProcessHandle.current().pid()), "Compiler.codelist").redirectErrorStream(true).start();
    String codelist = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(jcmd.waitFor()).isZero();
    CompiledBeforeAttach before = CompiledBeforeAttach.parse(codelist);
    String step = "exclusive:/Code/" + SourceCounterTest.class.getPackageName() + "/"
        + SourceCounterTest.class.getSimpleName() + "/attachStep(J)J";
    SourceCounter unknown = stepCounter(step, CompiledBeforeAttach.NONE);
    feed(unknown, compiles);
    SourceCounter attached = stepCounter(step, before);
    feed(attached, compiles);
    SourceCounter again = stepCounter(step, before);
    feed(again, compiles);

    assertThat(sink[0]).isNotZero();
    long stepCompiles = (Long) unknown.totals().get(0).get("count");
    assertThat(stepCompiles).as("attachStep's compilations, counted when nothing is known from before").isPositive();
    assertThat(attached.totals().get(0)).as("the %d compilations of attachStep, compiled before, are the attach's"
        + " wake", stepCompiles).containsEntry("count", 0L);
    assertThat(again.totals().get(0)).as("the same compilations, counted by another source, are left out the same")
        .containsEntry("count", 0L);
    long stepNanos = compiles.stream()
        .filter(e -> ((jdk.jfr.consumer.RecordedMethod) e.getValue("method")).getName().equals("attachStep"))
        .mapToLong(e -> e.getDuration().toNanos()).sum();
    assertThat(attached.toolJitNanos()).as("the JIT's time on the tool's behalf holds attachStep's compilations")
        .isGreaterThanOrEqualTo(unknown.toolJitNanos() + stepNanos)
        .isLessThanOrEqualTo(compiles.stream().mapToLong(e -> e.getDuration().toNanos()).sum());
  }

  private static SourceCounter stepCounter(String code, CompiledBeforeAttach before) {
    SourceCounter counter = new SourceCounter(PERIOD, tid -> -1);
    counter.add(1, SourceSpec.fromMap(Map.of("event", "jit_compile", "code", code)), 0);
    counter.compiledBeforeAttach(before);
    return counter;
  }

  /** The {@code jdk.Compilation} events JFR records while {@code work} runs. */
  private static List<RecordedEvent> compilationsDuring(Runnable work) throws java.io.IOException {
    Path file = Files.createTempFile("bottlenose-compilations", ".jfr");
    try (Recording r = new Recording()) {
      r.enable("jdk.Compilation").withThreshold(Duration.ZERO);
      r.start();
      work.run();
      r.stop();
      r.dump(file);
      return RecordingFile.readAllEvents(file).stream()
          .filter(e -> e.getEventType().getName().equals("jdk.Compilation")).toList();
    } finally {
      Files.delete(file);
    }
  }

  private static long attachStep(long i) {
    return (i * 37) ^ (i >>> 7);
  }

  private static long wakeStep(long i) {
    return (i * 31) ^ (i >>> 3);
  }

  private static long toolStep(long i) {
    return (i * 17) ^ (i >>> 5);
  }

  private static void feed(SourceCounter counter, List<RecordedEvent> events) {
    events.forEach(counter::accept);
  }

  private static long nanos(SourceCounter counter) {
    return (Long) counter.totals().get(0).get("nanos");
  }
}
