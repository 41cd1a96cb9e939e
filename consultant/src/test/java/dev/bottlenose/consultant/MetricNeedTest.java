package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.ResourcePath;
import org.junit.jupiter.api.Test;

class MetricNeedTest {
  private static final Hypothesis IO_WAIT = HypothesisCatalog.builtIn().stream()
      .filter(h -> h.id().equals("io_wait")).findFirst().orElseThrow();

  @Test
  void ioBlockingIsSampledAtCodeAndThreadsAndReadFromTheEventsWhereTheFocusNamesAFileOrSocket() {
    Focus code = Focus.of(ResourcePath.parse("/Code/com.acme/Journal"));
    Focus file = Focus.of(ResourcePath.parse("/Code/com.acme/Journal"), ResourcePath.parse("/IO/file"));

    assertThat(IO_WAIT.valueNeed().requestAt(Focus.WHOLE_PROGRAM).metric()).isEqualTo("io_time");
    assertThat(IO_WAIT.valueNeed().requestAt(code).metric()).isEqualTo("io_time");
    assertThat(IO_WAIT.valueNeed().requestAt(file).metric()).isEqualTo("io_wait");
    assertThat(IO_WAIT.valueNeed().requestAt(file).focus()).isEqualTo(file);
  }
}
