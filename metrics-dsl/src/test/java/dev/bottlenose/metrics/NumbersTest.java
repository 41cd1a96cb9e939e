package dev.bottlenose.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NumbersTest {

  @Test
  void valuesReadInFixedPointWithDecimalsByTheirMagnitude() {
    assertThat(Numbers.plain(0.44)).isEqualTo("0.44");
    assertThat(Numbers.plain(0.3)).isEqualTo("0.3");
    assertThat(Numbers.plain(2.0e-5)).isEqualTo("0.00002");
    assertThat(Numbers.plain(1.23456e-7)).isEqualTo("0.0000001235");
    assertThat(Numbers.plain(12345.6)).isEqualTo("12346");
    assertThat(Numbers.plain(1.5e9)).isEqualTo("1500000000");
    assertThat(Numbers.plain(3.14159)).isEqualTo("3.142");
    assertThat(Numbers.plain(-0.000123456)).isEqualTo("-0.0001235");
    assertThat(Numbers.plain(0)).isEqualTo("0");
    assertThat(Numbers.plain(-1e-20)).isEqualTo("0");
    assertThat(Numbers.plain(Double.NaN)).isEqualTo("?");
    assertThat(Numbers.plain(Double.NEGATIVE_INFINITY)).isEqualTo("-infinity");
    assertThat(Numbers.plain(2.5, 2)).isEqualTo("2.5");
    for (double v = 1e-11; v < 1e12; v *= 7.3) {
      assertThat(Numbers.plain(v)).as("%s", v).doesNotContain("e").doesNotContain("E");
    }
  }
}
