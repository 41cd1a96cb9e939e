package dev.bottlenose.web.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.Settings;
import java.util.List;
import org.junit.jupiter.api.Test;

class BottlenecksTest {

  @Test
  void theTrueLeafIsTheBottleneckWithItsEvidence() {
    List<Bottlenecks.Bottleneck> found = Bottlenecks.of(Graphs.cpuHot("s1"), HypothesisCatalog.of(Settings.defaults()));
    assertThat(found).singleElement().satisfies(b -> {
      assertThat(b.node().id()).isEqualTo(3);
      assertThat(b.metric()).isEqualTo("cpu_inclusive");
      assertThat(b.evidence()).isEqualTo("cpu_inclusive = 0.8000 > threshold 0.3000, tested 7.0 s");
      assertThat(b.toJson()).containsEntry("focus", "<" + Graphs.HOT + ">").containsEntry("nodeId", 3);
    });
    assertThat(Bottlenecks.text(found)).contains("* cpu_bound at <" + Graphs.HOT + ">");
  }

  @Test
  void noTrueLeafSaysSo() {
    assertThat(Bottlenecks.text(List.of())).startsWith("no bottleneck found");
  }
}
