package dev.bottlenose.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import acme.workload.Workloads;
import dev.bottlenose.instrumentation.ProbeException.Reason;
import dev.bottlenose.model.MethodRef;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Batches of probes over several classes: one retransformation each way, failures alone, bytes restored. */
class BatchTest {
  private static final String ME = "batch-test";
  private static final String SLEEPER = Workloads.Sleeper.class.getName();
  private static final String CALLER = Workloads.Caller.class.getName();
  private static ProbeManager manager;
  private static Instrumentation instrumentation;

  @BeforeAll
  static void attach() {
    manager = TestAgent.manager();
    instrumentation = TestAgent.instrumentation();
    Workloads.load();
  }

  @AfterEach
  void nothingLeft() {
    manager.removeAll(ME);
    assertThat(manager.ledger()).noneMatch(e -> e.requester().equals(ME));
    assertThat(manager.suppressedErrors()).isZero();
  }

  @Test
  void aBatchOverTwoClassesIsOneRetransformationEachWayAndRestoresTheBytes() throws Exception {
    byte[] sleeperBefore = manager.currentClassBytes(SLEEPER);
    byte[] callerBefore = manager.currentClassBytes(CALLER);
    List<ProbeRequest> requests = List.of(
        request(SLEEPER, "nap", ProbeKind.WALL_INCLUSIVE), request(SLEEPER, "napThenFail", ProbeKind.CALL_COUNT),
        request(SLEEPER, "outer", ProbeKind.WALL_INCLUSIVE), request(SLEEPER, "fib", ProbeKind.CALL_COUNT),
        request(CALLER, "caller", ProbeKind.CALL_COUNT), request(CALLER, "helper", ProbeKind.CALL_COUNT),
        request(CALLER, "other", ProbeKind.WALL_INCLUSIVE));
    Seen seen = new Seen(Workloads.Sleeper.class, Workloads.Caller.class);
    long before = manager.retransformations();

    List<InsertOutcome> inserted = seen.during(() -> manager.insertAll(requests));

    assertThat(manager.retransformations() - before).isEqualTo(1);
    assertThat(seen.times).containsExactlyInAnyOrderEntriesOf(Map.of(SLEEPER, 1, CALLER, 1));
    assertThat(inserted).allMatch(InsertOutcome::ok);
    assertThat(inserted).extracting(o -> o.result().method().methodName())
        .containsExactly("nap", "napThenFail", "outer", "fib", "caller", "helper", "other");
    assertThat(manager.ledger()).filteredOn(e -> e.requester().equals(ME)).hasSize(7);
    assertThat(ClassDiff.verify(manager.currentClassBytes(CALLER), Workloads.class.getClassLoader())).isEmpty();

    Workloads.Caller caller = new Workloads.Caller();
    caller.caller();
    caller.caller();
    Workloads.Sleeper.fib(4);
    assertThat(count(inserted.get(4))).isEqualTo(2);
    assertThat(count(inserted.get(5))).isEqualTo(6);
    assertThat(count(inserted.get(6))).isEqualTo(2);
    assertThat(count(inserted.get(3))).isEqualTo(9);

    List<Long> ids = inserted.stream().map(o -> o.result().probeId()).toList();
    long beforeRemoval = manager.retransformations();
    List<RemoveOutcome> removed = seen.during(() -> manager.removeMany(ids));

    assertThat(manager.retransformations() - beforeRemoval).isEqualTo(1);
    assertThat(seen.times).containsExactlyInAnyOrderEntriesOf(Map.of(SLEEPER, 1, CALLER, 1));
    assertThat(removed).allMatch(RemoveOutcome::ok);
    assertThat(removed).extracting(RemoveOutcome::probeId).containsExactlyElementsOf(ids);
    assertThat(removed).allMatch(o -> o.result().classRestored());
    byte[] sleeperAfter = manager.currentClassBytes(SLEEPER);
    byte[] callerAfter = manager.currentClassBytes(CALLER);
    assertThat(Arrays.equals(sleeperBefore, sleeperAfter)).as(() -> ClassDiff.diff(sleeperBefore, sleeperAfter)).isTrue();
    assertThat(Arrays.equals(callerBefore, callerAfter)).as(() -> ClassDiff.diff(callerBefore, callerAfter)).isTrue();
  }

  @Test
  void aBadItemFailsAloneWithTheReasonAndMessageOfASingleInsert() throws Exception {
    ProbeRequest noClass = request("com.acme.Nowhere", "run", ProbeKind.CALL_COUNT);
    ProbeRequest noMethod = request(CALLER, "missing", ProbeKind.CALL_COUNT);
    ProbeRequest unmodifiable = request("java.lang.Object", "toString", ProbeKind.CALL_COUNT);
    List<InsertOutcome> outcomes = manager.insertAll(List.of(request(CALLER, "helper", ProbeKind.CALL_COUNT), noClass,
        noMethod, unmodifiable, request(SLEEPER, "nap", ProbeKind.WALL_INCLUSIVE)));

    assertThat(outcomes).extracting(InsertOutcome::ok).containsExactly(true, false, false, false, true);
    for (int i = 1; i <= 3; i++) {
      ProbeException alone = single(List.of(noClass, noMethod, unmodifiable).get(i - 1));
      assertThat(outcomes.get(i).failure().reason()).isEqualTo(alone.reason());
      assertThat(outcomes.get(i).failure()).hasMessage(alone.getMessage());
    }
    assertThat(outcomes.get(1).failure().reason()).isEqualTo(Reason.NO_SUCH_CLASS);
    assertThat(outcomes.get(2).failure().reason()).isEqualTo(Reason.NO_SUCH_METHOD);
    assertThat(outcomes.get(3).failure().reason()).isEqualTo(Reason.UNMODIFIABLE_CLASS);
    assertThat(manager.ledger()).filteredOn(e -> e.requester().equals(ME)).extracting(e -> e.method().methodName())
        .containsExactly("helper", "nap");

    long helper = outcomes.get(0).result().probeId();
    List<RemoveOutcome> removed = manager.removeMany(List.of(helper, 987_654_321L, helper));
    assertThat(removed).extracting(RemoveOutcome::ok).containsExactly(true, false, false);
    assertThat(removed.get(0).result().classRestored()).isTrue();
    assertThat(removed.get(1).failure().reason()).isEqualTo(Reason.NO_SUCH_PROBE);
    assertThat(removed.get(1).failure()).hasMessage("no active probe with id 987654321");
    assertThat(removed.get(2).failure()).hasMessage("probe " + helper + " is listed more than once");
    assertThat(manager.ledger()).filteredOn(e -> e.requester().equals(ME)).extracting(e -> e.method().methodName())
        .containsExactly("nap");
  }

  @Test
  void whenTheVmRefusesTheBatchOnlyTheRefusedClassesProbesFail() throws Exception {
    byte[] callerBefore = manager.currentClassBytes(CALLER);
    ClassFileTransformer saboteur = new ClassFileTransformer() {
      @Override
      public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain,
          byte[] bytes) {
        return redefined == Workloads.Caller.class ? new byte[] {1, 2, 3} : null;
      }
    };
    instrumentation.addTransformer(saboteur, true);
    List<InsertOutcome> outcomes;
    try {
      outcomes = manager.insertAll(List.of(request(SLEEPER, "nap", ProbeKind.CALL_COUNT),
          request(CALLER, "helper", ProbeKind.CALL_COUNT), request(CALLER, "other", ProbeKind.CALL_COUNT)));
    } finally {
      instrumentation.removeTransformer(saboteur);
    }

    assertThat(outcomes).extracting(InsertOutcome::ok).containsExactly(true, false, false);
    assertThat(outcomes.get(1).failure().reason()).isEqualTo(Reason.TRANSFORM_FAILED);
    assertThat(outcomes.get(1).failure()).hasMessageStartingWith("the VM refused the retransformation of " + CALLER);
    assertThat(manager.ledger()).filteredOn(e -> e.requester().equals(ME)).extracting(e -> e.method().className())
        .containsExactly(SLEEPER);
    Workloads.Sleeper.nap(0);
    assertThat(count(outcomes.get(0))).isEqualTo(1);
    byte[] callerAfter = manager.currentClassBytes(CALLER);
    assertThat(Arrays.equals(callerBefore, callerAfter)).as(() -> ClassDiff.diff(callerBefore, callerAfter)).isTrue();
  }

  private static ProbeException single(ProbeRequest request) {
    try {
      manager.insert(request);
    } catch (ProbeException e) {
      return e;
    }
    throw new AssertionError("insert accepted " + request);
  }

  private static long count(InsertOutcome outcome) {
    return manager.read().stream().filter(r -> r.probeId() == outcome.result().probeId()).findFirst().orElseThrow()
        .count();
  }

  private static ProbeRequest request(String className, String method, ProbeKind kind) {
    return new ProbeRequest(new MethodRef(className, method, null), kind, null, ME);
  }

  /** Counts, per class, how often the VM hands one of {@code watched} to transformers while an action runs. */
  private static final class Seen implements ClassFileTransformer {
    private final List<Class<?>> watched;
    private final Map<String, Integer> times = new ConcurrentHashMap<>();

    Seen(Class<?>... watched) {
      this.watched = new ArrayList<>(List.of(watched));
    }

    <T> T during(Action<T> action) throws Exception {
      times.clear();
      instrumentation.addTransformer(this, true);
      try {
        return action.run();
      } finally {
        instrumentation.removeTransformer(this);
      }
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain,
        byte[] bytes) {
      if (watched.contains(redefined)) {
        times.merge(redefined.getName(), 1, Integer::sum);
      }
      return null;
    }
  }

  private interface Action<T> {
    T run() throws Exception;
  }
}
