package dev.bottlenose.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import acme.workload.Workloads;
import dev.bottlenose.model.MethodRef;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CompositionTest {
  private static final MethodRef TICK = new MethodRef(Workloads.Counter.class.getName(), "tick", null);
  private static final MethodRef FIB = new MethodRef(Workloads.Sleeper.class.getName(), "fib", null);
  private static ProbeManager manager;

  @BeforeAll
  static void attach() {
    manager = TestAgent.manager();
    Workloads.load();
  }

  @AfterEach
  void cleanUp() {
    manager.removeAll("alice");
    manager.removeAll("bob");
    assertThat(manager.suppressedErrors()).isZero();
  }

  @Test
  void probesOnOneMethodComposeAndSurvivePartialRemoval() throws Exception {
    byte[] original = manager.currentClassBytes(TICK.className());
    long aliceCount = insert(TICK, ProbeKind.CALL_COUNT, "alice");
    long bobTimer = insert(TICK, ProbeKind.WALL_INCLUSIVE, "bob");
    long bobCount = insert(TICK, ProbeKind.CALL_COUNT, "bob");
    long bobExclusive = insert(TICK, ProbeKind.WALL_EXCLUSIVE, "bob");
    tick(10);
    assertThat(count(aliceCount)).isEqualTo(10);
    assertThat(count(bobTimer)).isEqualTo(10);
    assertThat(count(bobCount)).isEqualTo(10);
    assertThat(count(bobExclusive)).isEqualTo(10);

    RemoveResult removed = manager.remove(bobCount);
    assertThat(removed.classRestored()).isFalse();
    tick(5);
    assertThat(count(aliceCount)).isEqualTo(15);
    assertThat(count(bobTimer)).isEqualTo(15);
    assertThat(manager.read()).extracting(ProbeReading::probeId).doesNotContain(bobCount);

    List<RemoveResult> bobs = manager.removeAll("bob");
    assertThat(bobs).extracting(RemoveResult::probeId).containsExactlyInAnyOrder(bobTimer, bobExclusive);
    tick(5);
    assertThat(count(aliceCount)).isEqualTo(20);
    assertThat(manager.ledger()).extracting(LedgerEntry::requester).containsOnly("alice");

    assertThat(manager.remove(aliceCount).classRestored()).isTrue();
    assertThat(Arrays.equals(original, manager.currentClassBytes(TICK.className()))).isTrue();
  }

  @Test
  void ledgerNamesEveryActiveProbe() throws Exception {
    long id = insert(FIB, ProbeKind.WALL_INCLUSIVE, "alice");
    LedgerEntry entry = manager.ledger().stream().filter(e -> e.probeId() == id).findFirst().orElseThrow();
    assertThat(entry.method()).isEqualTo(new MethodRef(FIB.className(), "fib", "(I)I"));
    assertThat(entry.kind()).isEqualTo(ProbeKind.WALL_INCLUSIVE);
    assertThat(entry.requester()).isEqualTo("alice");
    assertThat(entry.sinceEpochMillis()).isPositive();
  }

  @Test
  void twoRecursionGuardedTimersOnOneMethodBothCountOnce() throws Exception {
    long first = insert(FIB, ProbeKind.WALL_INCLUSIVE, "alice");
    long second = insert(FIB, ProbeKind.WALL_INCLUSIVE, "bob");
    Workloads.Sleeper.fib(4);
    assertThat(count(first)).isEqualTo(1);
    assertThat(count(second)).isEqualTo(1);
  }

  @Test
  void insertAndRemoveWhileOtherThreadsRunTheMethod() throws Exception {
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread[] workers = new Thread[2];
    for (int t = 0; t < workers.length; t++) {
      workers[t] = new Thread(() -> {
        try {
          while (running.get()) {
            tick(100);
            Workloads.Sleeper.fib(2);
          }
        } catch (Throwable e) {
          failure.set(e);
        }
      });
      workers[t].start();
    }
    try {
      for (int i = 0; i < 15; i++) {
        long count = insert(TICK, ProbeKind.CALL_COUNT, "alice");
        long timer = insert(FIB, ProbeKind.WALL_INCLUSIVE, "bob");
        manager.remove(count);
        manager.remove(timer);
      }
    } finally {
      running.set(false);
      for (Thread w : workers) {
        w.join();
      }
    }
    assertThat(failure.get()).isNull();
    assertThat(manager.ledger()).noneMatch(e -> e.requester().equals("alice") || e.requester().equals("bob"));
  }

  private static void tick(int times) {
    Workloads.Counter c = new Workloads.Counter();
    for (int i = 0; i < times; i++) {
      c.tick();
    }
  }

  private static long insert(MethodRef method, ProbeKind kind, String requester) throws ProbeException {
    return manager.insert(new ProbeRequest(method, kind, null, requester)).probeId();
  }

  private static long count(long id) {
    return manager.read().stream().filter(r -> r.probeId() == id).findFirst().orElseThrow().count();
  }
}
