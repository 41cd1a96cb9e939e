package dev.bottlenose.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The committed reference page is what the generator writes from the built-in library now. */
class ReferencePageTest {
  private static final Path PAGE = Path.of("docs/metrics.md");

  @Test
  void committedPageIsUpToDate() throws IOException {
    String expected = ReferenceGenerator.page(MetricLibrary.builtin());
    String committed = Files.exists(PAGE) ? Files.readString(PAGE, StandardCharsets.UTF_8) : "";
    assertThat(committed)
        .as("metrics-dsl/docs/metrics.md is out of date with builtin.metrics; regenerate it from the repository root with\n"
            + "  mvn -q -pl metrics-dsl -am compile && java -cp metrics-dsl/target/classes:resource-model/target/classes "
            + "dev.bottlenose.metrics.ReferenceGenerator metrics-dsl/docs/metrics.md")
        .isEqualTo(expected);
  }

  @Test
  void pageDocumentsEveryBuiltInMetric() {
    String page = ReferenceGenerator.page(MetricLibrary.builtin());
    for (MetricDefinition d : MetricLibrary.builtin().metrics()) {
      assertThat(page).contains("\n## " + d.name() + "\n", d.description(), d.definition());
    }
    assertThat(page).contains("| accumulates | `duration of monitor_enter, lock_park` |", "| refinements | `/Code inclusive, /Threads, /Process, /Machine` |");
  }
}
