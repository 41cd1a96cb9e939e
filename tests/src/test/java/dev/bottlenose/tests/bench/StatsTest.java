package dev.bottlenose.tests.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.stream.DoubleStream;
import org.junit.jupiter.api.Test;

class StatsTest {
  @Test
  void theMedianAndRangeOfOddAndEvenSamples() {
    Stats odd = Stats.of(List.of(0.03, 0.01, 0.02));
    assertThat(odd.median()).isEqualTo(0.02);
    assertThat(odd.min()).isEqualTo(0.01);
    assertThat(odd.max()).isEqualTo(0.03);
    assertThat(Stats.of(List.of(0.04, 0.01, 0.02, 0.03)).median()).isEqualTo(0.025);
    assertThat(odd.percent()).isEqualTo("+2.0% (+1.0..+3.0)");
  }

  @Test
  void theMediansIntervalHoldsTheMedianNarrowsWithMoreRepetitionsAndReadsTheSameEachTime() {
    Random random = new Random(7);
    List<Double> six = DoubleStream.generate(() -> 0.01 + 0.02 * random.nextGaussian()).limit(6).boxed().toList();
    List<Double> sixty = DoubleStream.generate(() -> 0.01 + 0.02 * random.nextGaussian()).limit(60).boxed().toList();

    Stats few = Stats.of(six);
    Stats many = Stats.of(sixty);

    assertThat(few.medianLow()).isLessThanOrEqualTo(few.median()).isGreaterThanOrEqualTo(few.min());
    assertThat(few.medianHigh()).isGreaterThanOrEqualTo(few.median()).isLessThanOrEqualTo(few.max());
    assertThat(many.medianHigh() - many.medianLow()).isLessThan((few.medianHigh() - few.medianLow()) / 2);
    assertThat(many.medianLow()).isLessThan(0.01);
    assertThat(many.medianHigh()).isGreaterThan(0.01);
    assertThat(Stats.of(six)).isEqualTo(few);
  }

  @Test
  void aSampleWithoutSpreadHasNoneInItsMedian() {
    Stats same = Stats.of(List.of(0.012, 0.012, 0.012, 0.012));
    assertThat(same.medianInterval()).isEqualTo("+1.2..+1.2%");
    assertThat(Stats.of(List.of()).medianInterval()).isEqualTo("n/a");
  }
}
