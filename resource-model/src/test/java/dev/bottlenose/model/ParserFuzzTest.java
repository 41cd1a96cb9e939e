package dev.bottlenose.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.bottlenose.model.json.Json;
import dev.bottlenose.model.json.JsonException;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Any text either parses, and then prints canonically to something that parses equal, or fails with a position inside it. */
class ParserFuzzTest {

  @Property
  void textParsersFailOnlyWithAPosition(@ForAll("texts") String text) {
    assertParsesOrPoints(text, ResourcePath::parse, ResourcePath::toString);
    assertParsesOrPoints(text, Focus::parse, Focus::toString);
    assertParsesOrPoints(text, Constraint::parse, Constraint::toString);
    assertParsesOrPoints("(m, " + text + ")", MetricFocus::parse, MetricFocus::toString);
  }

  @Property
  void jsonFailsOnlyWithAPosition(@ForAll("jsonish") String text) {
    Throwable t = catchThrowable(() -> assertThat(Json.parse(Json.write(Json.parse(text)))).isEqualTo(Json.parse(text)));
    if (t != null) {
      assertThat(t).isInstanceOf(JsonException.class);
      assertThat(((JsonException) t).position()).isBetween(0, text.length());
    }
  }

  private static <T> void assertParsesOrPoints(String text, Function<String, T> parse, Function<T, String> print) {
    T value;
    try {
      value = parse.apply(text);
    } catch (PathSyntaxException e) {
      assertThat(e.input()).isEqualTo(text);
      assertThat(e.position()).isBetween(0, text.length());
      return;
    }
    assertThat(parse.apply(print.apply(value))).isEqualTo(value);
  }

  @Provide
  Arbitrary<String> texts() {
    Arbitrary<String> valid = Arbitraries.of(
        "/Code/com.acme/Sim/run(Ljava/lang/String;[[I)Ljava/util/List;/c2",
        "</Code/a/B/<init>()V, /Threads/main\\ x>",
        "caller:/IO/file//tmp/a\\,b",
        "/Memory/List<Map<K\\,V>>/\"\"",
        "< /SyncObjects/a\\\\b , /VM >");
    return Arbitraries.oneOf(mutated(valid, "/\\,<>();[LIV\" "), Arbitraries.strings().withChars("/\\,<>();[LIVCode \"").ofMaxLength(20));
  }

  @Provide
  Arbitrary<String> jsonish() {
    Arbitrary<String> valid = Arbitraries.of(
        "{\"a\": [1, -2.5e3, true, null, \"x\\u00e9\\ud83d\\ude00\"], \"b\": {\"c\": false}}", "[0, 1.5, \"\\n\\\"\"]", "\"\\\\\"", "-0.25E-2");
    return mutated(valid, "{}[]\",:\\u0123456789eE+-.tfn ");
  }

  private static Arbitrary<String> mutated(Arbitrary<String> valid, String chars) {
    return Combinators.combine(valid, Arbitraries.integers().between(0, 1000), Arbitraries.of(chars.chars().mapToObj(c -> (char) c).toArray(Character[]::new)), Arbitraries.integers().between(0, 2))
        .as((s, at, c, op) -> {
          int i = at % (s.length() + 1);
          if (op == 0) {
            return s.substring(0, i) + c + s.substring(i);
          }
          return i < s.length() ? s.substring(0, i) + (op == 1 ? String.valueOf(c) : "") + s.substring(i + 1) : s;
        });
  }
}
