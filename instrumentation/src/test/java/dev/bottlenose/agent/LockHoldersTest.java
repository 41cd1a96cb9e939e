package dev.bottlenose.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.agent.wire.Holders;
import dev.bottlenose.agent.wire.HoldersReply;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The holders of contended monitors, looked at in this JVM: who holds, what it does, who waits and in which pool. */
class LockHoldersTest {
  private final Object lock = new Object();

  @Test
  void namesTheHolderWhatItDoesAndTheWaitersPoolsAlsoOfAWaiterThatCameLate() throws Exception {
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread holder = new Thread(() -> {
      synchronized (lock) {
        held.countDown();
        try {
          release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }, "cache-holder");
    holder.start();
    held.await();
    Thread early = waiter(new ThreadGroup("early"), "early-waiter");
    Thread late = waiter(new ThreadGroup("late"), "late-waiter");
    try {
      early.start();
      awaitBlocked(early);
      Thread starter = new Thread(() -> {
        sleep(150);
        late.start();
      });
      starter.start();
      HoldersReply reply = LockHolders.look(new Holders(6, 100));
      starter.join();

      assertThat(reply.held()).isNotEmpty();
      HoldersReply.Held h = reply.held().get(0);
      assertThat(h.lock()).isEqualTo("monitor java.lang.Object");
      assertThat(h.owner()).isEqualTo("cache-holder");
      assertThat(h.ownerStack()).contains("/Code/java.util.concurrent/CountDownLatch/await");
      assertThat(h.waiters()).contains("early-waiter", "late-waiter");
      // pools as discovery names them: a thread without a number is its group's
      assertThat(h.waiterPools()).containsExactlyInAnyOrder("early", "late");
    } finally {
      release.countDown();
      holder.join();
      early.join();
      late.join();
    }
  }

  private Thread waiter(ThreadGroup group, String name) {
    return new Thread(group, () -> {
      synchronized (lock) {
        lock.hashCode();
      }
    }, name);
  }

  private static void awaitBlocked(Thread t) {
    for (int i = 0; i < 200 && t.getState() != Thread.State.BLOCKED; i++) {
      sleep(10);
    }
    assertThat(t.getState()).isEqualTo(Thread.State.BLOCKED);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
