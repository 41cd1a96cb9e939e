package dev.bottlenose.agent.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourceChange;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class ThreadDiscoveryTest {
  private final ResourceTree tree = new ResourceTree();
  private final ThreadDiscovery threads = new ThreadDiscovery(tree, new SyncObjects(tree));

  @Test
  void aRunningThreadChangesTheTreeOnlyWhenItComesAndGoesAndIsReadLiveWhenAsked() throws Exception {
    CountDownLatch stop = new CountDownLatch(1);
    Thread busy = new Thread(() -> {
      long x = 0;
      while (stop.getCount() > 0) {
        x += System.nanoTime() % 7;
      }
      if (x == 42) {
        System.out.print("");
      }
    }, "td-busy-1");
    busy.start();
    try {
      threads.start();
      threads.refresh();
      List<ResourceChange> first = tree.drainChanges();
      ResourcePath path = first.stream().map(ResourceChange::path).filter(p -> p.name().equals("td-busy-1"))
          .findFirst().orElseThrow();
      assertThat(tree.get(path).attributes()).as("what the tree keeps").containsOnlyKeys("id", "daemon");

      Thread.sleep(50);
      threads.refresh();
      assertThat(tree.drainChanges()).as("a second refresh while the same threads run").noneMatch(c -> c.path().equals(path));

      List<Resource> asked = threads.withLive(tree.subtree(path, 0));
      assertThat(asked).singleElement().satisfies(r -> {
        assertThat(r.attributes()).containsKeys("id", "daemon", "state", "cpuNanos");
        assertThat(r.attributes().get("state")).isEqualTo("RUNNABLE");
        assertThat(Long.parseLong(r.attributes().get("cpuNanos"))).isPositive();
      });
    } finally {
      stop.countDown();
      busy.join();
      threads.stop();
    }
    threads.refresh();
    assertThat(tree.drainChanges()).as("the ended thread leaves").anyMatch(c -> c.type() == ResourceChange.Type.REMOVED
        && c.path().name().equals("td-busy-1"));
  }

  @Test
  void theProgramsThreadsWaitsAreCountedAndKeptWhenTheyEndButNotTheAgents() throws Exception {
    assertThat(threads.programWaits()).as("before the first refresh").isEqualTo(-1);
    threads.refresh();
    long before = threads.programWaits();
    assertThat(before).isZero();
    CountDownLatch parked = new CountDownLatch(2);
    CountDownLatch end = new CountDownLatch(1);
    Thread program = new Thread(() -> parks(300, parked, end), "td-parker");
    Thread agent = new Thread(() -> parks(3_000, parked, end), "bottlenose-td-parker");
    program.start();
    agent.start();
    try {
      parked.await();
      threads.refresh();
      long seen = threads.programWaits() - before;
      assertThat(seen).as("the program's thread parked 300 times, the agent's 3,000 times").isBetween(300L, 2_999L);
      end.countDown();
      program.join();
      agent.join();
      threads.refresh();
      assertThat(threads.programWaits() - before).as("kept when the thread ended").isGreaterThanOrEqualTo(seen);
    } finally {
      end.countDown();
    }
  }

  private static void parks(int n, CountDownLatch parked, CountDownLatch end) {
    for (int i = 0; i < n; i++) {
      LockSupport.parkNanos(10_000);
    }
    parked.countDown();
    try {
      end.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
