package dev.bottlenose.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

  @Test
  void readsEveryUnit() {
    assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("10s")).isEqualTo(Duration.ofSeconds(10));
    assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void refusesTextWithoutAUnitOrOutOfRange() {
    assertThatThrownBy(() -> Durations.parse("10")).isInstanceOf(UsageException.class)
        .hasMessage("bad duration '10': write a number and a unit, e.g. 500ms, 10s, 2m, 1h");
    assertThatThrownBy(() -> Durations.parse("-1s")).isInstanceOf(UsageException.class);
    assertThatThrownBy(() -> Durations.parse("10 s")).isInstanceOf(UsageException.class);
    assertThatThrownBy(() -> Durations.parse("0ms")).hasMessageContaining("outside 1ms .. 24h");
    assertThatThrownBy(() -> Durations.parse("25h")).hasMessageContaining("outside 1ms .. 24h");
  }

  @Test
  void formatsShortly() {
    assertThat(Durations.format(Duration.ofMillis(250))).isEqualTo("250ms");
    assertThat(Durations.format(Duration.ofSeconds(8))).isEqualTo("8s");
    assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
  }
}
