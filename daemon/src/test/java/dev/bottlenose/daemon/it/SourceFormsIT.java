package dev.bottlenose.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.daemon.session.SourceInfo;
import dev.bottlenose.daemon.session.SourceValue;
import dev.bottlenose.daemon.session.TargetSession;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Execution forms of cpu_sample on a target run with {@code -Xint}: every sample of the spinning method is interpreted. */
class SourceFormsIT {
  @Test
  void anInterpretedTargetShowsInterpretedSamplesOnly() throws Exception {
    try (SourcesTarget target = SourcesTarget.start("-Xint");
        TargetSession session = TargetSession.attach(target.pid(), SourcesIT.OPTIONS, System.err)) {
      String spin = "exclusive:" + SourcesTarget.CLASS + "/spin";
      SourceInfo all = session.watch(Map.of("event", "cpu_sample", "code", spin), "it");
      SourceInfo interpreted = session.watch(Map.of("event", "cpu_sample", "code", spin, "form", "interpreted"), "it");
      SourceInfo compiled = session.watch(Map.of("event", "cpu_sample", "code", spin, "form", "compiled"), "it");
      target.run("spin 1000");
      Thread.sleep(1500);
      await().atMost(Duration.ofSeconds(10)).until(() -> {
        SourceValue a = session.values().latest().source(all.sourceId());
        return a != null && a.count() > 10 && a.count() == session.values().latest().source(interpreted.sourceId())
            .count();
      });
      assertThat(session.values().latest().source(compiled.sourceId()).count()).isZero();
      assertThat(session.hello().calibration().get("virtualCallNanos")).isPositive();
      assertThat(session.hello().calibration().get("allocationNanos")).isPositive();
    }
  }
}
