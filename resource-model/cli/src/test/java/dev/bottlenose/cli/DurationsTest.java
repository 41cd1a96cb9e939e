package dev.bottlenose.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class DurationsTest {

  @Test
  void readsEveryUnit() {
    assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("8s")).isEqualTo(Duration.ofSeconds(8));
    assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(Durations.parse("1.5m")).isEqualTo(Duration.ofSeconds(90));
    assertThat(Durations.parse("2h")).isEqualTo(Duration.ofHours(2));
    assertThat(Durations.parse(" 10s ")).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void refusesTextWithoutAUnitOrOutOfRange() {
    assertThatThrownBy(() -> Durations.parse("10")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bad duration '10': write a number and a unit, e.g. 500ms, 8s, 1.5m, 2h");
    assertThatThrownBy(() -> Durations.parse("-1s")).hasMessageContaining("bad duration '-1s'");
    assertThatThrownBy(() -> Durations.parse("10 s")).hasMessageContaining("bad duration '10 s'");
    assertThatThrownBy(() -> Durations.parse("0ms")).hasMessage("duration '0ms' is outside 1ms .. 24h");
    assertThatThrownBy(() -> Durations.parse("25h")).hasMessage("duration '25h' is outside 1ms .. 24h");
  }

  @Test
  void theConverterSaysWhatIsWrongInPicocliTerms() {
    assertThat(new Durations.Converter().convert("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThatThrownBy(() -> new Durations.Converter().convert("ten")).isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("bad duration 'ten'");
  }

  @Test
  void formatsShortly() {
    assertThat(Durations.format(Duration.ofMillis(250))).isEqualTo("250ms");
    assertThat(Durations.format(Duration.ofSeconds(8))).isEqualTo("8s");
    assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
  }
}
