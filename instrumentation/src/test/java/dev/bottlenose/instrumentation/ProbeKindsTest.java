package dev.bottlenose.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import acme.workload.Workloads;
import dev.bottlenose.model.MethodRef;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

class ProbeKindsTest {
  private static final String ME = "probe-kinds-test";
  private static final long MS = 1_000_000L;
  private static ProbeManager manager;

  @BeforeAll
  static void attach() {
    manager = TestAgent.manager();
    Workloads.load();
  }

  @AfterEach
  void removeProbes() {
    manager.removeAll(ME);
    assertThat(manager.suppressedErrors()).isZero();
  }

  @Test
  void callCountCountsEveryCallExactlyFromSeveralThreads() throws Exception {
    long id = insert(Workloads.Counter.class, "tick", ProbeKind.CALL_COUNT, null);
    Workloads.Counter counter = new Workloads.Counter();
    Thread[] threads = new Thread[4];
    for (int t = 0; t < threads.length; t++) {
      threads[t] = new Thread(() -> {
        for (int i = 0; i < 25_000; i++) {
          new Workloads.Counter().tick();
        }
      });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    counter.tick();
    assertThat(reading(id).count()).isEqualTo(100_001);
  }

  @Test
  void inclusiveTimerMeasuresNormalAndExceptionalExits() {
    long napId = insert(Workloads.Sleeper.class, "nap", ProbeKind.WALL_INCLUSIVE, null);
    long failId = insert(Workloads.Sleeper.class, "napThenFail", ProbeKind.WALL_INCLUSIVE, null);
    long start = System.nanoTime();
    Workloads.Sleeper.nap(20);
    Workloads.Sleeper.nap(20);
    assertThatThrownBy(() -> Workloads.Sleeper.napThenFail(20)).hasMessage("planned");
    long elapsed = System.nanoTime() - start;

    ProbeReading naps = reading(napId);
    ProbeReading fails = reading(failId);
    assertThat(naps.count()).isEqualTo(3);
    assertThat(naps.nanos()).isBetween(60 * MS, elapsed);
    assertThat(fails.count()).isEqualTo(1);
    assertThat(fails.nanos()).isBetween(20 * MS, elapsed);
  }

  @Test
  void inclusiveTimerCountsDirectRecursionOnce() {
    long id = insert(Workloads.Sleeper.class, "fib", ProbeKind.WALL_INCLUSIVE, null);
    long start = System.nanoTime();
    assertThat(Workloads.Sleeper.fib(5)).isEqualTo(5);
    assertThat(Workloads.Sleeper.fib(5)).isEqualTo(5);
    long elapsed = System.nanoTime() - start;

    ProbeReading r = reading(id);
    assertThat(r.count()).isEqualTo(2);
    assertThat(r.nanos()).isBetween(16 * MS, elapsed);
  }

  @Test
  void exclusiveTimerLeavesOutTheCallsTheMethodMakes() {
    long exclusive = insert(Workloads.Sleeper.class, "outer", ProbeKind.WALL_EXCLUSIVE, null);
    long inclusive = insert(Workloads.Sleeper.class, "outer", ProbeKind.WALL_INCLUSIVE, null);
    for (int i = 0; i < 3; i++) {
      Workloads.Sleeper.outer(15);
    }
    ProbeReading own = reading(exclusive);
    ProbeReading all = reading(inclusive);
    assertThat(own.count()).isEqualTo(3);
    assertThat(all.nanos()).isGreaterThanOrEqualTo(45 * MS);
    assertThat(own.nanos()).isPositive().isLessThan(all.nanos() - 40 * MS);
  }

  @Test
  void callSiteProbeCountsAndTimesOnlyTheMatchingCallee() {
    MethodRef helper = new MethodRef(Workloads.Caller.class.getName(), "helper", null);
    long id = insert(Workloads.Caller.class, "caller", ProbeKind.CALL_SITE, helper);
    Workloads.Caller c = new Workloads.Caller();
    for (int i = 0; i < 10; i++) {
      c.caller();
    }
    c.helper();
    ProbeReading r = reading(id);
    assertThat(r.count()).isEqualTo(30);
    assertThat(r.nanos()).isPositive();
  }

  @Test
  void allocationProbeCountsObjectsAndArraysPerType() {
    long id = insert(Workloads.Shapes.class, "make", ProbeKind.ALLOCATION, null);
    for (int i = 0; i < 5; i++) {
      Workloads.Shapes.make();
    }
    ProbeReading r = reading(id);
    String point = Workloads.Point.class.getName();
    assertThat(r.countByType()).containsEntry(point, 10L).containsEntry("int[]", 5L)
        .containsEntry("java.lang.String[]", 5L).containsEntry("long[][]", 5L);
    assertThat(r.count()).isEqualTo(25);
    long pointSize = TestAgent.instrumentation().getObjectSize(new Workloads.Point(0, null));
    assertThat(r.bytesByType()).containsEntry(point, 10 * pointSize)
        .containsEntry("int[]", 5 * (16L + 10 * 4)).containsEntry("java.lang.String[]", 5 * (16L + 3 * 4));
    assertThat(r.bytes()).isEqualTo(10 * pointSize + 5 * 56 + 5 * 28);
  }

  @Test
  void allocationProbeSeesObjectsOfMethodsThatThrow() {
    long id = insert(Workloads.Shapes.class, "makeOr", ProbeKind.ALLOCATION, null);
    Workloads.Shapes.makeOr(false);
    assertThatThrownBy(() -> Workloads.Shapes.makeOr(true)).isInstanceOf(IllegalArgumentException.class);
    ProbeReading r = reading(id);
    assertThat(r.countByType()).containsEntry("java.util.ArrayList", 1L)
        .containsEntry("java.lang.StringBuilder", 1L).containsEntry("java.lang.IllegalArgumentException", 1L);
  }

  @Test
  void allocationWithoutTheDupPatternIsCountedWithoutSize() throws Exception {
    Class<?> c = UnusualAllocation.define();
    long id = insert(c, "make", ProbeKind.ALLOCATION, null);
    c.getMethod("make").invoke(null);
    c.getMethod("make").invoke(null);
    ProbeReading r = reading(id);
    assertThat(r.countByType()).containsExactly(java.util.Map.entry("java.lang.Object", 2L));
    assertThat(r.bytes()).isZero();
  }

  @Test
  void monitorProbeTimesAContendedSynchronizedBlock() throws Exception {
    long id = insert(Workloads.Locks.class, "guarded", ProbeKind.MONITOR, null);
    CountDownLatch held = new CountDownLatch(1);
    Thread holder = new Thread(() -> {
      synchronized (Workloads.Locks.LOCK) {
        held.countDown();
        Workloads.Sleeper.nap(60);
      }
    });
    holder.start();
    assertThat(held.await(5, TimeUnit.SECONDS)).isTrue();
    long start = System.nanoTime();
    Workloads.Locks.guarded();
    long elapsed = System.nanoTime() - start;
    Workloads.Locks.guarded();
    holder.join();

    ProbeReading r = reading(id);
    assertThat(r.count()).isEqualTo(2);
    assertThat(r.nanos()).isBetween(30 * MS, elapsed + 5 * MS);
  }

  @Test
  void monitorProbeCountsEntriesOfSynchronizedMethods() {
    long id = insert(Workloads.Locks.class, "syncMethod", ProbeKind.MONITOR, null);
    Workloads.Locks locks = new Workloads.Locks();
    for (int i = 0; i < 7; i++) {
      locks.syncMethod();
    }
    assertThat(reading(id).count()).isEqualTo(7);
  }

  @Test
  void everyKindTogetherKeepsTrickyControlFlowWorking() throws Exception {
    List<Long> inParse = new ArrayList<>();
    long constructorCalls = 0;
    for (ProbeKind kind : ProbeKind.values()) {
      MethodRef callee = kind == ProbeKind.CALL_SITE ? new MethodRef("java.lang.Integer", "parseInt", null) : null;
      inParse.add(insert(Workloads.Tricky.class, "parse", kind, callee));
      long inConstructor = insert(Workloads.Tricky.class, "<init>", kind, callee);
      constructorCalls = kind == ProbeKind.CALL_COUNT ? inConstructor : constructorCalls;
    }
    Workloads.Tricky tricky = new Workloads.Tricky(false, "abc");
    assertThat(tricky.size).isEqualTo(3);
    assertThat(tricky.parse(new String[] {"7", "", "y", "abc"})).isEqualTo(7 + 100 + 100 - 1 + 100 + 3 + 100);
    assertThat(new Workloads.Tricky(true, "ab").size).isEqualTo(20);
    assertThat(reading(constructorCalls).count()).isEqualTo(2);
    for (long id : inParse) {
      assertThat(reading(id).count()).as("%s", reading(id)).isPositive();
    }
  }

  @Test
  void probesInJdkClassesCount() {
    long id = insert(java.util.ArrayList.class, "ensureCapacity", ProbeKind.CALL_COUNT, null);
    java.util.ArrayList<String> list = new java.util.ArrayList<>();
    for (int i = 0; i < 9; i++) {
      list.ensureCapacity(i);
    }
    assertThat(reading(id).count()).isGreaterThanOrEqualTo(9);
  }

  @Test
  void costGrowsWithExecutionsAndRetransformations() {
    ProbeCost before = manager.cost();
    long id = insert(Workloads.Counter.class, "tick", ProbeKind.CALL_COUNT, null);
    for (int i = 0; i < 1000; i++) {
      new Workloads.Counter().tick();
    }
    ProbeCost after = manager.cost();
    assertThat(reading(id).count()).isEqualTo(1000);
    assertThat(after.executions() - before.executions()).isEqualTo(1000);
    assertThat(after.probeNanos()).isGreaterThan(before.probeNanos());
    assertThat(after.retransformNanos()).isGreaterThan(before.retransformNanos());
  }

  @Test
  void costNeverFallsWhileTheCalibrationIsRefined() {
    long id = insert(Workloads.Counter.class, "tick", ProbeKind.CALL_COUNT, null);
    long previous = manager.cost().probeNanos();
    for (int report = 0; report < 20; report++) {
      for (int i = 0; i < 1000; i++) {
        new Workloads.Counter().tick();
      }
      long now = manager.cost().probeNanos();
      assertThat(now).as("report %d: executions so far are not priced again", report).isGreaterThan(previous);
      previous = now;
    }
    assertThat(reading(id).count()).isEqualTo(20_000);
  }

  /** {@code new Object()} kept in a local instead of javac's new/dup pattern. */
  static final class UnusualAllocation extends ClassLoader {
    private static final String NAME = "acme/generated/UnusualAllocation";

    UnusualAllocation() {
      super(ProbeKindsTest.class.getClassLoader());
    }

    static Class<?> define() throws ReflectiveOperationException {
      ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
      cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, NAME, null, "java/lang/Object", null);
      MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "make", "()Ljava/lang/Object;", null, null);
      mv.visitCode();
      mv.visitTypeInsn(Opcodes.NEW, "java/lang/Object");
      mv.visitVarInsn(Opcodes.ASTORE, 0);
      mv.visitVarInsn(Opcodes.ALOAD, 0);
      mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
      mv.visitVarInsn(Opcodes.ALOAD, 0);
      mv.visitInsn(Opcodes.ARETURN);
      mv.visitMaxs(0, 0);
      mv.visitEnd();
      cw.visitEnd();
      byte[] bytes = cw.toByteArray();
      Class<?> c = new UnusualAllocation().defineClass(NAME.replace('/', '.'), bytes, 0, bytes.length);
      c.getMethod("make").invoke(null);
      return c;
    }
  }

  private static long insert(Class<?> c, String method, ProbeKind kind, MethodRef callee) {
    try {
      return manager.insert(new ProbeRequest(new MethodRef(c.getName(), method, null), kind, callee, ME)).probeId();
    } catch (ProbeException e) {
      throw new AssertionError(e.reason() + ": " + e.getMessage(), e);
    }
  }

  private static ProbeReading reading(long id) {
    return manager.read().stream().filter(r -> r.probeId() == id).findFirst().orElseThrow();
  }
}
