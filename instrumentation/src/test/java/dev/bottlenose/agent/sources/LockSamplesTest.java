package dev.bottlenose.agent.sources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.agent.wire.SourceSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

/**
 * The agent's lock samples on a real JFR recording in this JVM, with threads whose waits are known: one blocked
 * entering a monitor, one parked on a held {@link ReentrantLock}, and one waiting on a {@link Condition} (waiting
 * for an event, not for a lock: never sampled), for about a second.
 */
class LockSamplesTest {
  private static final long PERIOD = 20_000_000L;
  private static final long HELD_MILLIS = 1_000;

  @Test
  void eachThreadWaitingForALockIsSampledForTheTimeItWaitedAndTheEventLeavesWithTheRecording() throws Exception {
    JfrRecording recording = new JfrRecording();
    assertThat(recording.start()).isTrue();
    Path file = Files.createTempFile("bottlenose-lock-samples", ".jfr");
    Object monitor = new Object();
    ReentrantLock lock = new ReentrantLock();
    ReentrantLock conditionLock = new ReentrantLock();
    Condition never = conditionLock.newCondition();
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread holder = new Thread(() -> {
      synchronized (monitor) {
        lock.lock();
        try {
          held.countDown();
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          lock.unlock();
        }
      }
    }, "holder");
    Thread blocked = new Thread(() -> {
      synchronized (monitor) {
        Thread.onSpinWait();
      }
    }, "blocked-on-monitor");
    Thread parked = new Thread(() -> {
      lock.lock();
      lock.unlock();
    }, "parked-on-lock");
    Thread idle = new Thread(() -> {
      conditionLock.lock();
      try {
        never.await(HELD_MILLIS * 3, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        conditionLock.unlock();
      }
    }, "waiting-for-work");
    try (Recording copy = new Recording()) {
      WatchedSources sources = new WatchedSources(PERIOD, recording);
      long id = sources.watch(SourceSpec.fromMap(Map.of("event", "lock_sample")), "test");
      copy.enable(LockSamples.EVENT).withPeriod(Duration.ofNanos(PERIOD));
      copy.start();
      // JFR's periodic thread takes up a new period at its next wake-up, up to a second later
      Thread.sleep(1_500);
      holder.start();
      assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
      long from = System.nanoTime();
      blocked.start();
      parked.start();
      idle.start();
      Thread.sleep(HELD_MILLIS);
      release.countDown();
      for (Thread t : List.of(holder, blocked, parked)) {
        t.join(10_000);
      }
      long waited = System.nanoTime() - from;
      copy.stop();
      copy.dump(file);
      assertThat(sources.unwatch(id, "test")).isTrue();

      Map<String, Long> nanosByThread = new HashMap<>();
      Map<String, Boolean> monitorByThread = new HashMap<>();
      Map<String, String> classByThread = new HashMap<>();
      Map<String, java.util.Set<String>> matchedByThread = new HashMap<>();
      Map<String, ResourceFilter> filters = Map.of(
          "monitors", filter("/SyncObjects/monitors"),
          "monitors/Object", filter("/SyncObjects/monitors/java.lang.Object"),
          "locks", filter("/SyncObjects/locks"),
          "locks/NonfairSync", filter("/SyncObjects/locks/java.util.concurrent.locks.ReentrantLock$NonfairSync"),
          "locks/Object", filter("/SyncObjects/locks/java.lang.Object"));
      for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
        if (!e.getEventType().getName().equals(LockSamples.EVENT)) {
          continue;
        }
        String name = e.getThread("sampledThread").getJavaName();
        nanosByThread.merge(name, e.getDuration("period").toNanos(), Long::sum);
        monitorByThread.put(name, e.getBoolean("monitor"));
        if (e.getString("lockClass") != null) {
          classByThread.put(name, e.getString("lockClass"));
        }
        filters.forEach((label, f) -> {
          if (f.matches(SourceEvent.LOCK_SAMPLE, e)) {
            matchedByThread.computeIfAbsent(name, k -> new java.util.TreeSet<>()).add(label);
          }
        });
      }

      assertThat(nanosByThread.keySet()).as("the threads waiting for a lock, not the one waiting for work or the holder")
          .containsExactlyInAnyOrder("blocked-on-monitor", "parked-on-lock");
      for (String name : nanosByThread.keySet()) {
        // samples every 20 ms over about a second: within a quarter of the time the threads waited
        assertThat((double) nanosByThread.get(name)).as(name + " waited %d ns", waited)
            .isBetween(waited * 0.75, waited * 1.25);
      }
      assertThat(monitorByThread).containsEntry("blocked-on-monitor", true).containsEntry("parked-on-lock", false);
      assertThat(classByThread).as("the class of the object each waits for, as /SyncObjects names it")
          .containsEntry("parked-on-lock", "java.util.concurrent.locks.ReentrantLock$NonfairSync")
          .containsEntry("blocked-on-monitor", "java.lang.Object");
      assertThat(matchedByThread).as("the /SyncObjects filters each thread's samples match")
          .containsEntry("parked-on-lock", java.util.Set.of("locks", "locks/NonfairSync"))
          .containsEntry("blocked-on-monitor", java.util.Set.of("monitors", "monitors/Object"));
    } finally {
      release.countDown();
      idle.interrupt();
      recording.stop();
      Files.deleteIfExists(file);
    }
    assertThat(FlightRecorder.getFlightRecorder().getEventTypes()).extracting(EventType::getName)
        .as("the agent's recording stopped: its event left JFR").doesNotContain(LockSamples.EVENT);
  }

  private static ResourceFilter filter(String path) {
    return new ResourceFilter(dev.bottlenose.model.ResourcePath.parse(path));
  }
}
