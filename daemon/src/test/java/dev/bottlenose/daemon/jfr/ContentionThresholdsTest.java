package dev.bottlenose.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.agent.discovery.DiscoverySettings;
import org.junit.jupiter.api.Test;

class ContentionThresholdsTest {
  static final String PARK = "jdk.ThreadPark";
  static final String ENTER = "jdk.JavaMonitorEnter";
  static final long LOWEST = DiscoverySettings.CONTENTION_THRESHOLD.toNanos();
  /** The most parks a second discovery records; a window is two seconds. */
  static final int MAX = ContentionThresholds.MAX_PER_SECOND;

  /** {@code n} events of {@code nanos} each, then the window ended {@code millis} after the last one ended. */
  private static boolean window(ContentionThresholds t, long startMillis, long millis, String event, int n, long nanos) {
    for (int i = 0; i < n; i++) {
      t.recorded(event, nanos);
    }
    return t.adjust(startMillis + millis);
  }

  @Test
  void parksRecordedMoreOftenThanAffordableAreRaisedAndMonitorEntriesAreNotBounded() {
    ContentionThresholds t = new ContentionThresholds();
    assertThat(t.adjust(0)).as("the first call starts the window").isFalse();
    assertThat(window(t, 0, 1_000, PARK, 10 * MAX, LOWEST)).as("a window shorter than two seconds").isFalse();
    assertThat(t.of(PARK)).isEqualTo(LOWEST);
    assertThat(window(t, 1_000, 1_000, PARK, 0, LOWEST)).as("5 times the most a second, all under twice the lowest")
        .isTrue();
    assertThat(t.of(PARK)).isEqualTo(2 * LOWEST);
    assertThat(t.recorded(ENTER, LOWEST)).as("a contended monitor entry: not bounded, not counted").isFalse();
    assertThat(t.of(ENTER)).as("monitor entries stay at discovery's fixed threshold").isZero();
    assertThat(t.all()).containsOnlyKeys(PARK);

    assertThat(window(t, 2_000, 2_000, PARK, 3 * MAX, 4 * LOWEST)).as("1.5 times the most a second, all under 8 times the lowest")
        .isTrue();
    assertThat(t.of(PARK)).isEqualTo(8 * LOWEST);
  }

  @Test
  void eventsUnderTheCurrentThresholdAreNotCountedAndAreNotRecordedByDiscovery() {
    ContentionThresholds t = new ContentionThresholds();
    t.adjust(0);
    window(t, 0, 2_000, PARK, 20 * MAX, LOWEST);
    assertThat(t.of(PARK)).isEqualTo(2 * LOWEST);
    assertThat(t.recorded(PARK, LOWEST)).as("a park a source asked for alone").isFalse();
    for (int i = 0; i < 20 * MAX; i++) {
      t.recorded(PARK, LOWEST); // recorded before the agent applied the new threshold, or for a source alone
    }
    assertThat(window(t, 2_000, 2_000, PARK, MAX, 4 * LOWEST)).as("half the most a second of discovery's own").isFalse();
    assertThat(t.of(PARK)).as("between an eighth of the most a second and the most: kept").isEqualTo(2 * LOWEST);
    assertThat(t.recorded("jdk.SocketRead", 1)).as("not a contention event").isFalse();
    assertThat(t.of("jdk.SocketRead")).isZero();
  }

  @Test
  void aServersPoolsGoStraightToTheThresholdTheirParksDurationsAllow() {
    ContentionThresholds t = new ContentionThresholds();
    t.adjust(0);
    // 2 s of an HTTP server's pools: parks from the lowest threshold to 16 times it, 4 times the most at each step
    for (int k = 0; k < 5; k++) {
      for (int i = 0; i < 4 * MAX; i++) {
        t.recorded(PARK, (LOWEST << k) + 1);
      }
    }
    assertThat(t.adjust(2_000)).isTrue();
    assertThat(t.of(PARK)).as("the first threshold with at most twice the most above it in 2 s").isEqualTo(32 * LOWEST);
    assertThat(window(t, 2_000, 2_000, PARK, 2 * MAX - 2, 32 * LOWEST)).as("just under the most a second: kept")
        .isFalse();
  }

  @Test
  void itComesBackDownWhenFewAreRecordedButNeverUnderTheLowestOrOverTheHighest() {
    ContentionThresholds t = new ContentionThresholds();
    t.adjust(0);
    long end = 0;
    for (int i = 0; i < 10; i++) {
      window(t, end, 2_000, PARK, 200 * MAX, Long.MAX_VALUE);
      end += 2_000;
    }
    assertThat(t.of(PARK)).isEqualTo(DiscoverySettings.MAX_CONTENTION_THRESHOLD.toNanos());
    assertThat(window(t, end, 2_000, PARK, MAX / 5, Long.MAX_VALUE)).as("a tenth of the most a second: under an eighth")
        .isTrue();
    assertThat(t.of(PARK)).isEqualTo(DiscoverySettings.MAX_CONTENTION_THRESHOLD.toNanos() / 2);
    for (int i = 0; i < 10; i++) {
      end += 2_000;
      window(t, end, 2_000, PARK, 0, 0);
    }
    assertThat(t.of(PARK)).isEqualTo(LOWEST);
    assertThat(t.all()).containsExactlyEntriesOf(java.util.Map.of(PARK, LOWEST));
  }
}
