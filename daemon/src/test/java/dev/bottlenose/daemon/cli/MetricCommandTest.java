package dev.bottlenose.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricCommandTest {
  private static final String GOOD = String.join("\n",
      "# parks outside the workers",
      "metric juc_park_outside_workers {",
      "  description \"Time parked in java.util.concurrent by threads other than the workers\"",
      "  unit fraction",
      "  accumulates duration of park",
      "  when inclusive:/Code/java.util.concurrent/** and not /Threads/worker",
      "  refine /Code inclusive, /Process",
      "  combine sum",
      "  report fraction",
      "}",
      "metric bytes_per_io {",
      "  description \"Bytes per operation\"",
      "  unit bytes/count",
      "  value io_bytes / io_ops",
      "  combine avg",
      "}",
      "");

  @TempDir
  Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(List.of(args), new Console(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)));
  }

  private String file(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text, StandardCharsets.UTF_8);
    return p.toString();
  }

  @Test
  void aGoodFileExits0WithAOneLineSummary() throws IOException {
    String f = file("good.metrics", GOOD);
    assertThat(run("metric", "check", f)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .isEqualTo(f + ": ok, 2 metrics (juc_park_outside_workers, bytes_per_io)" + System.lineSeparator());
  }

  @Test
  void errorsArePrintedAsFileLineColumnMessageAndExit1() throws IOException {
    String f = file("bad.metrics", String.join("\n",
        "metric cpu {",
        "  description \"clashes with the built-in\"",
        "  unit fraction",
        "  accumulates cpu_time",
        "  refine /Code exclusive",
        "  combine total",
        "  report fraction",
        "}",
        "metric ratio_of_nothing {",
        "  description \"refers to an unknown metric\"",
        "  unit fraction",
        "  value cpu_nope / cpu",
        "  combine sum",
        "}"));
    assertThat(run("metric", "check", f)).isEqualTo(1);
    List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines).anyMatch(l -> l.startsWith(f + ":1:8: metric 'cpu' is already defined in the library"));
    assertThat(lines).anyMatch(l -> l.startsWith(f + ":6:11: expected 'sum', 'avg', 'min' or 'max'"));
    assertThat(lines).anyMatch(l -> l.startsWith(f + ":12:") && l.contains("cpu_nope"));
    assertThat(lines.get(lines.size() - 1)).matches(java.util.regex.Pattern.quote(f) + ": \\d+ errors");
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void aMissingFileIsARuntimeFailureAndBadUsageExits2() {
    assertThat(run("metric", "check", dir.resolve("none.metrics").toString())).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("no such metric file: ");
    assertThat(run("metric", "check")).isEqualTo(2);
    assertThat(run("metric", "frob")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("'frob'").contains("Usage: bottlenose metric ");
  }

  @Test
  void listShowsTheBuiltInsAndTheFilesMetricsWithUnitAndDescription() throws IOException {
    String f = file("good.metrics", GOOD);
    assertThat(run("metric", "list", "--file", f)).isZero();
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text).startsWith("built-in (26):").contains(f + " (2):");
    assertThat(text.lines()).anyMatch(l -> l.matches("\\s+sync_wait\\s+fraction\\s+\\S.*"));
    assertThat(text.lines()).anyMatch(l -> l.matches("\\s+bytes_per_io\\s+bytes/count\\s+Bytes per operation"));
    // --metrics, as measure and search name a metric file; --file, its old name, is still read
    String listed = text;
    out.reset();
    assertThat(run("metric", "list", "--metrics", f)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(listed);
    out.reset();
    assertThat(run("metric", "list", "--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("--metrics=FILE").doesNotContain("--file");
  }

  @Test
  void measureRefusesAnUnknownMetricOrAFocusItCannotTakeBeforeAttaching() throws IOException {
    assertThat(run("measure", "--pid", "1", "--metric", "nope", "--focus", "<>")).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("no metric 'nope' among the built-ins; known: cpu,");
    assertThat(run("measure", "--pid", "1", "--metric", "calls", "--focus", "<>")).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("metric 'calls' at <>: ");
    String f = file("good.metrics", GOOD);
    assertThat(run("measure", "--pid", "1", "--metric", "bytes_per_io", "--focus", "</SyncObjects/x>", "--metrics", f))
        .isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("cannot be refined to /SyncObjects");
    assertThat(run("measure", "--pid", "1", "--metric", "calls", "--probe", "call_count", "--focus", "<>"))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--probe KIND or --metric NAME, not both");
  }
}
