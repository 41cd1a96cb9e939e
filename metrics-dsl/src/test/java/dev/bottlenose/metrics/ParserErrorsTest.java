package dev.bottlenose.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Syntax errors: each one located at line:column and saying what was expected there. */
class ParserErrorsTest {

  static List<String> errors(String text) {
    Diagnostics d = MetricLibrary.builtin().with("t.metrics", text);
    return d.errors().stream().map(DslError::toString).toList();
  }

  @Test
  void wrongWordAfterCombineSaysWhatWasExpected() {
    String text = "metric m {\n  description \"x\"\n  unit fraction\n  combine total\n}\n";
    assertThat(errors(text)).containsExactly("4:11: expected 'sum', 'avg', 'min' or 'max' after 'combine', found 'total'");
  }

  @Test
  void severalErrorsInOneFileAreAllReported() {
    String text = "metric { }\nstray\nmetric q {\n  description \"q\"\n  unit count\n  value (((1\n  combine sum\n}\n"
        + "metric r {\n  description \"r\"\n  report weekly\n}\n";
    assertThat(errors(text)).containsExactly(
        "1:8: expected a metric name ([A-Za-z_][A-Za-z0-9_]*) after 'metric', found '{'",
        "2:1: expected 'metric' starting a metric definition, found 'stray'",
        "7:3: expected ')' closing the parenthesised expression, found 'combine'",
        "11:10: expected 'total', 'rate' or 'fraction' after 'report', found 'weekly'");
  }

  @Test
  void unterminatedStringAndUnknownClause() {
    String text = "metric m {\n  description \"runs away\n  unit fraction\n  colour red\n}\n";
    assertThat(errors(text)).containsExactly(
        "2:15: unterminated string; expected '\"' before the end of the line",
        "4:3: expected a clause ('description', 'unit', 'accumulates', 'when', 'refine', 'combine', 'report', 'form', 'value') or '}', found 'colour'");
  }

  @Test
  void pathErrorsFromTheResourceModelAreMappedIntoTheFile() {
    String text = "metric m {\n  description \"x\"\n  unit fraction\n  accumulates cpu_time\n"
        + "  when exclusive:/Code/a/B/m(I/)V\n  refine /code exclusive\n  combine sum\n  report fraction\n}\n";
    assertThat(errors(text)).containsExactly(
        "5:31: malformed method descriptor: expected a parameter type (B C D F I J S Z L [) or ')' but found '/' in /Code/a/B/m(I/)V",
        "6:11: unknown hierarchy root 'code'; valid roots are /Code, /Threads, /SyncObjects, /Memory, /IO, /VM, /Process, /Machine in /code");
  }

  @Test
  void missingPiecesInsideConditionsAndUnits() {
    String text = "metric m {\n  description \"x\"\n  unit count/\n  accumulates duration gc_pause\n  when exclusive /Code\n"
        + "  refine /Code/a exclusive\n  combine sum\n  report total\n}\n";
    assertThat(errors(text)).containsExactly(
        "4:3: expected 'count', 'bytes', 'seconds', 's', 'fraction' or 'ratio' after 'count/', found 'accumulates'",
        "4:24: expected 'of' and event names after 'accumulates duration', found 'gc_pause'",
        "5:18: expected ':' after the constraint mode 'exclusive', found '/'",
        "6:10: 'refine' names a hierarchy root such as /Code, not the path /Code/a");
  }

  @Test
  void unclosedMetricAtEndOfFile() {
    assertThat(errors("metric m {\n  description \"x\"\n")).containsExactly("3:1: expected '}' closing metric 'm', found end of file");
  }

  @Test
  void badCharactersAndNumbers() {
    String text = "metric m {\n  description \"x\"\n  unit fraction\n  value cpu @ 2\n  combine sum\n}\n"
        + "metric n {\n  description \"n\"\n  unit fraction\n  value 2e+ * cpu\n  combine sum\n}\n";
    assertThat(errors(text)).containsExactly(
        "4:13: unexpected character '@'",
        "10:12: expected digits in the exponent of a number");
    assertThat(errors("metric m { description \"x\" unit fraction value cpu * 1e999 combine sum }"))
        .containsExactly("1:54: number 1e999 is out of range");
  }

  @Test
  void deepNestingIsAnErrorNotACrash() {
    String text = "metric m {\n  description \"x\"\n  unit fraction\n  value " + "(".repeat(5000) + "1\n  combine sum\n}\n";
    assertThat(errors(text)).singleElement().asString().startsWith("4:73: nesting deeper than 64 levels");
  }

  @Test
  void aLongChainOfOperatorsIsAnErrorNotACrash() {
    // Without parentheses, a / b / c … is a tree as deep as its operators; 20 000 of them overflowed the checker's stack.
    String text = "metric m {\n  description \"x\"\n  unit bytes/count\n  value io_bytes" + " / io_ops".repeat(20_000) + "\n  combine avg\n}\n";
    assertThat(errors(text)).singleElement().asString()
        .isEqualTo("4:2322: more than 256 operators in one clause; split the formula into several metrics");
    String fine = "metric m {\n  description \"x\"\n  unit bytes/count\n  value io_bytes / io_ops" + " + io_bytes / io_ops".repeat(127) + "\n  combine avg\n}\n";
    assertThat(errors(fine)).isEmpty();
  }
}
