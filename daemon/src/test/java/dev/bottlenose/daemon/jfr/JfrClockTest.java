package dev.bottlenose.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.agent.sources.WallClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JFR's event times put on the wall clock the agent's wall-clock events carry. */
class JfrClockTest {
  @TempDir
  Path tmp;

  /** A wall-clock event as the agent's: its name and field, with the wall clock it claims. */
  @Name(WallClock.EVENT)
  static final class Stamp extends Event {
    long wallMillis;
  }

  /** A recording of wall-clock events claiming {@code claimed[i]}, read back in commit order. */
  private List<RecordedEvent> recorded(long... claimed) throws Exception {
    Path file = tmp.resolve("clock.jfr");
    try (Recording r = new Recording()) {
      r.enable(WallClock.EVENT);
      r.start();
      for (long c : claimed) {
        Stamp s = new Stamp();
        s.wallMillis = c;
        s.commit();
      }
      r.stop();
      r.dump(file);
    }
    return RecordingFile.readAllEvents(file).stream().filter(e -> e.getEventType().getName().equals(WallClock.EVENT))
        .sorted(java.util.Comparator.comparing(RecordedEvent::getStartTime)).toList();
  }

  @Test
  void beforeAnyWallClockEventJfrsTimesAreTakenAsTheyAre() {
    JfrClock clock = new JfrClock();
    assertThat(clock.offsetMillis()).isNull();
    assertThat(clock.millis(Instant.ofEpochMilli(1_000_000))).isEqualTo(1_000_000);
  }

  @Test
  void aJfrClockRunningBehindIsMovedForwardByWhatTheLatestEventShows() throws Exception {
    long now = System.currentTimeMillis();
    // the wall clock claimed 5 s and then 7 s ahead of JFR's: JFR runs behind, by the latest reading
    List<RecordedEvent> events = recorded(now + 5_000, now + 7_000);
    JfrClock clock = new JfrClock();
    clock.observe(events.get(0));
    long jfr = events.get(0).getStartTime().toEpochMilli();
    assertThat(clock.offsetMillis()).isBetween(-5_000L - 100, -5_000L + 100);
    assertThat(clock.millis(events.get(0).getStartTime())).isEqualTo(now + 5_000);
    clock.observe(events.get(1));
    assertThat(clock.millis(events.get(1).getStartTime())).isEqualTo(now + 7_000);
    assertThat(clock.millis(Instant.ofEpochMilli(jfr))).as("an earlier time on the latest offset")
        .isBetween(now + 7_000 - 100, now + 7_000);
  }

  @Test
  void anEventWithoutTheWallClockFieldChangesNothing() throws Exception {
    Path file = tmp.resolve("other.jfr");
    try (Recording r = new Recording()) {
      r.enable("jdk.JavaMonitorWait");
      r.start();
      Object lock = new Object();
      synchronized (lock) {
        lock.wait(1);
      }
      r.stop();
      r.dump(file);
    }
    JfrClock clock = new JfrClock();
    RecordingFile.readAllEvents(file).forEach(clock::observe);
    assertThat(clock.offsetMillis()).isNull();
  }
}
