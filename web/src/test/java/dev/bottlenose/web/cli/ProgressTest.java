package dev.bottlenose.web.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.Search;
import org.junit.jupiter.api.Test;

class ProgressTest {

  @Test
  void theStatusLineSaysWhereTheBudgetGoesInPercent() {
    assertThat(Progress.spending(new Search.Spending(0.0031, 0.0048, 0.01)))
        .isEqualTo("measuring 0.31% + 0.48% attached, of the 1.00% budget");
  }
}
