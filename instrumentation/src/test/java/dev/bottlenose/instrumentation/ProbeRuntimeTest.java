package dev.bottlenose.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.probe.Probes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The probe runtime's counter cells: owned stripes, shared atomic stripes, release and reset. */
class ProbeRuntimeTest {
  private static final int SLOT = Probes.SLOTS - 1;
  /** Three times the owned stripes: at least two thirds of the threads must add atomically. */
  private static final int THREADS = 24;

  @BeforeAll
  static void installTheRuntimeOnTheBootClassPath() {
    TestAgent.manager();
  }

  @BeforeEach
  void clear() {
    Probes.reset(SLOT);
  }

  @Test
  void totalsAreExactWhenMoreThreadsThanOwnedStripesAddAtOnce() throws Exception {
    int threads = THREADS;
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread thread = new Thread(() -> addAfter(start));
      thread.start();
      started.add(thread);
    }
    for (Thread thread : started) {
      thread.join();
    }
    assertThat(Probes.readCount(SLOT)).isEqualTo(threads * 50_000L);
    assertThat(Probes.readNanos(SLOT)).isPositive();
    assertThat(Probes.suppressed()).isZero();
  }

  @Test
  void aReleasedStripeKeepsItsCountsAndPassesToTheNextThread() throws Exception {
    Probes.count(SLOT);
    Probes.count(SLOT);
    Probes.releaseStripe();
    Thread next = new Thread(() -> Probes.count(SLOT));
    next.start();
    next.join();
    Probes.count(SLOT);
    assertThat(Probes.readCount(SLOT)).isEqualTo(4);
    Probes.releaseStripe();
  }

  @Test
  void resetZeroesOwnedAndSharedStripes() throws Exception {
    Thread other = new Thread(() -> Probes.allocatedArray(5, SLOT));
    other.start();
    other.join();
    Probes.count(SLOT);
    Probes.reset(SLOT);
    assertThat(Probes.readCount(SLOT)).isZero();
    assertThat(Probes.readExtra(SLOT)).isZero();
    Probes.releaseStripe();
  }

  private static void addAfter(CyclicBarrier start) {
    try {
      start.await();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    for (int i = 0; i < 25_000; i++) {
      Probes.count(SLOT);
      Probes.time(SLOT, Probes.now());
    }
  }
}
