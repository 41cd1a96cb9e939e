package dev.bottlenose.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.Focus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The examples of README.md's language section load next to the built-ins and compile. */
class ReadmeExamplesTest {

  @Test
  void languageExamplesLoadAndCompile() throws IOException {
    String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
    int section = readme.indexOf("## The language");
    int start = readme.indexOf("```\n", section) + 4;
    String example = readme.substring(start, readme.indexOf("```\n", start));
    Diagnostics d = MetricLibrary.builtin().with("README.md", example);
    assertThat(d.errors()).isEmpty();
    MetricLibrary lib = d.library();
    assertThat(MetricCompiler.compile(lib.metric("interpreted_cpu"), Focus.parse("</Code/a/B/m()V>")).items()).hasSize(1);
    assertThat(MetricCompiler.compile(lib.metric("juc_park_outside_workers"), Focus.WHOLE_PROGRAM).formulaText())
        .isEqualTo("(((s0.nanos - s1.nanos) * 1.0E-9) / interval_s)");
    assertThat(MetricCompiler.compile(lib.metric("bytes_per_io"), Focus.parse("</Threads/main>")).items()).hasSize(4);
  }
}
