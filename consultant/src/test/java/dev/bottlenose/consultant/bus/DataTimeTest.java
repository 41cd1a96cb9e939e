package dev.bottlenose.consultant.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DataTimeTest {
  private static final long T0 = 1_000_000;

  @Test
  void aSteadyRateDeliveredInLateBurstsIsThatRateOnTheDataTime() {
    DataTime time = new DataTime(T0);
    List<DataTime.Stretch> stretches = new ArrayList<>();
    // 0.5 s samples; JFR flushes once a second, so every other sample brings two samples' worth of a steady 0.6
    double[] read = {0, 1.2, 0, 1.2, 0, 1.2, 0, 1.2};
    long[] through = {T0, T0 + 1000, T0 + 1000, T0 + 2000, T0 + 2000, T0 + 3000, T0 + 3000, T0 + 4000};
    for (int i = 0; i < read.length; i++) {
      DataTime.Stretch s = time.sampled(read[i], 500, through[i]);
      if (s != null) {
        stretches.add(s);
      }
    }

    assertThat(stretches).hasSize(4).allSatisfy(s -> {
      assertThat(s.toMillis() - s.fromMillis()).isEqualTo(1000);
      assertThat(s.value()).isCloseTo(0.6, within(1e-9));
    });
    assertThat(stretches.get(0).fromMillis()).isEqualTo(T0);
  }

  @Test
  void eventsReadBeforeTheirFlushIsStampedWaitForTheStretchTheyBelongTo() {
    DataTime time = new DataTime(T0);

    assertThat(time.sampled(0.4, 500, T0)).isNull();
    DataTime.Stretch s = time.sampled(0.0, 500, T0 + 500);

    assertThat(s).isEqualTo(new DataTime.Stretch(T0, T0 + 500, 0.4));
  }

  @Test
  void withoutTheEnableTimeTheFirstSampleIsOnlyTheBaseline() {
    DataTime time = new DataTime(-1);

    assertThat(time.sampled(3.0, 500, T0)).isNull();
    assertThat(time.sampled(0.5, 1000, T0 + 1000)).isEqualTo(new DataTime.Stretch(T0, T0 + 1000, 0.5));
  }
}
