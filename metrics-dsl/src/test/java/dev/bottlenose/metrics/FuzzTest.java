package dev.bottlenose.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.Focus;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Any text yields a library or errors located inside it; compiling what loads yields a plan or a MetricException. */
class FuzzTest {
  private static final String BUILTIN = MetricLibrary.builtinText();
  private static final List<String> WORDS = List.of("metric", "{", "}", "(", ")", ",", ":", "/", "*", "-", "+", "#", "\"", "\n", " ",
      "description", "unit", "accumulates", "when", "refine", "combine", "report", "form", "value", "of", "and", "or", "not",
      "program", "cpu", "calls", "duration", "count", "bytes", "seconds", "fraction", "/Code", "/Threads", "exclusive", "inclusive",
      "caller", "**", "1e9", "0.5", "1e999", "é", "日本", "\uD83D\uDE00", "\\", "\t", "\r\n", "\u0000");
  private static final List<Focus> FOCI = List.of(Focus.WHOLE_PROGRAM, Focus.parse("</Code/a/B/m()V>"), Focus.parse("</Code/a/B/m()V/c2, /Threads/main>"),
      Focus.parse("</Code/a>"), Focus.parse("</SyncObjects/x, /Process/1>"));

  @Property(tries = 2000)
  void mutatedBuiltinsLoadOrPointInsideTheText(@ForAll("mutatedBuiltins") String text) {
    checkLoads(text);
  }

  @Property(tries = 1200)
  void tokenSoupLoadsOrPointsInsideTheText(@ForAll("soup") String text) {
    checkLoads(text);
  }

  private static void checkLoads(String text) {
    Diagnostics d = MetricLibrary.empty().with("fuzz.metrics", text);
    String[] lines = text.split("\n", -1);
    for (DslError e : d.errors()) {
      assertThat(e.file()).isEqualTo("fuzz.metrics");
      assertThat(e.line()).as("%s", e).isBetween(1, lines.length);
      assertThat(e.column()).as("%s", e).isBetween(1, lines[e.line() - 1].length() + 1);
      assertThat(e.message()).isNotBlank();
    }
    if (!d.hasErrors()) {
      for (MetricDefinition m : d.library().metrics()) {
        compiles(m, FOCI.get(Math.floorMod(text.length() + m.name().hashCode(), FOCI.size())));
      }
    }
  }

  private static void compiles(MetricDefinition m, Focus f) {
    try {
      ProbePlan plan = MetricCompiler.compile(m, f);
      assertThat(ProbePlan.fromJson(plan.toString()).toString()).isEqualTo(plan.toString());
    } catch (MetricException e) {
      assertThat(e.getMessage()).isNotBlank();
    }
  }

  @Provide
  Arbitrary<String> mutatedBuiltins() {
    Arbitrary<Integer> at = Arbitraries.integers().between(0, BUILTIN.length());
    Arbitrary<Integer> length = Arbitraries.integers().between(0, 60);
    Arbitrary<String> insert = Arbitraries.oneOf(Arbitraries.of(WORDS), Arbitraries.strings().ofMaxLength(4));
    Arbitrary<Integer> op = Arbitraries.integers().between(0, 4);
    return Combinators.combine(op, at, length, insert, at).as(FuzzTest::mutate);
  }

  private static String mutate(int op, int at, int length, String insert, int other) {
    String s = BUILTIN;
    int end = Math.min(s.length(), at + length);
    switch (op) {
      case 0:
        return s.substring(0, at) + s.substring(end);
      case 1:
        return s.substring(0, at) + insert + s.substring(at);
      case 2:
        return s.substring(0, at);
      case 3:
        int a = Math.min(at, other);
        int b = Math.max(at, other);
        int aEnd = Math.min(b, a + length);
        int bEnd = Math.min(s.length(), b + length);
        return s.substring(0, a) + s.substring(b, bEnd) + s.substring(aEnd, b) + s.substring(a, aEnd) + s.substring(bEnd);
      default:
        return s.substring(0, at) + insert + s.substring(end);
    }
  }

  @Provide
  Arbitrary<String> soup() {
    return Arbitraries.of(WORDS).list().ofMaxSize(80).map(l -> String.join(" ", l));
  }
}
