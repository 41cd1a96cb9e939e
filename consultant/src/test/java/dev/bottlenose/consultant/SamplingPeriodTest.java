package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SamplingPeriodTest {
  private static long at(double budget) {
    return SamplingPeriod.millis(Settings.defaults().with("budget.fraction", Double.toString(budget)));
  }

  @Test
  void aSmallBudgetSamplesMoreSlowlyUpToTheLongestPeriod() {
    assertThat(at(0.10)).isEqualTo(20);
    assertThat(at(0.05)).isEqualTo(20);
    assertThat(at(0.03)).isEqualTo(33);
    assertThat(at(0.02)).isEqualTo(50);
    assertThat(at(0.01)).isEqualTo(100);
    assertThat(at(0.005)).isEqualTo(100);
    assertThat(SamplingPeriod.millis(Settings.defaults().with("budget.fraction", "0.005")
        .with("sampling.max_period_ms", "500"))).isEqualTo(200);
  }

  @Test
  void badSettingsAreNamed() {
    assertThatThrownBy(() -> at(0)).hasMessage("setting budget.fraction must be more than 0, is 0.0");
    assertThatThrownBy(() -> SamplingPeriod.millis(Settings.defaults().with("sampling.max_period_ms", "10")))
        .hasMessage("sampling.max_period_ms (10.0) must be at least sampling.period_ms (20.0)");
  }
}
