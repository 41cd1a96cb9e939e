package dev.bottlenose.model.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void readsEveryKindOfValue() {
    Object v = Json.parse(" {\"a\": [1, -2.5, 3e2, true, false, null], \"b\": {}, \"c\": \"x\\u00e9\\n\\\"\\/\", \"d\": []} ");

    assertThat(v).isInstanceOf(LinkedHashMap.class);
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) v;
    assertThat(m.keySet()).containsExactly("a", "b", "c", "d");
    assertThat(m.get("a")).isInstanceOf(ArrayList.class).isEqualTo(Arrays.asList(1L, -2.5, 300.0, true, false, null));
    assertThat(m.get("b")).isEqualTo(Map.of());
    assertThat(m.get("c")).isEqualTo("xé\n\"/");
    assertThat(m.get("d")).isEqualTo(List.of());
  }

  @Test
  void numbers() {
    assertThat(Json.parse("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
    assertThat(Json.parse("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
    assertThat(Json.parse("9223372036854775808")).isEqualTo(9.223372036854775808e18);
    assertThat(Json.parse("0")).isEqualTo(0L);
    assertThat(Json.parse("-0.0")).isEqualTo(-0.0);
    assertThat(Json.parse("1E-3")).isEqualTo(0.001);
  }

  @Test
  void surrogatePairsFromEscapesAndRaw() {
    assertThat(Json.parse("\"\\ud83d\\ude00 😀\"")).isEqualTo("😀 😀");
    assertThat(Json.write("😀")).isEqualTo("\"😀\"");
    assertThat(Json.write("a\ud800b")).isEqualTo("\"a\\ud800b\"");
    assertThat(Json.parse(Json.write("\udc00\ud800"))).isEqualTo("\udc00\ud800");
  }

  @Test
  void writesCompactText() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("s", "tab\there \u0001");
    m.put("n", List.of(1, 2L, 1.5f, 2.25, new BigDecimal("1.10")));
    m.put("arr", new int[] {1, 2});
    m.put("o", Arrays.asList(null, true, 'c'));

    assertThat(Json.write(m)).isEqualTo("{\"s\":\"tab\\there \\u0001\",\"n\":[1,2,1.5,2.25,1.10],\"arr\":[1,2],\"o\":[null,true,\"c\"]}");
  }

  @Test
  void writeRefusesWhatJsonCannotSay() {
    StringBuilder sb = new StringBuilder("keep");
    assertThatThrownBy(() -> Json.write(List.of(1, Double.NaN), sb)).isInstanceOf(JsonException.class).hasMessageContaining("NaN");
    assertThat(sb).hasToString("keep");
    assertThatThrownBy(() -> Json.write(Double.POSITIVE_INFINITY)).hasMessageContaining("Infinity");
    assertThatThrownBy(() -> Json.write(new Object())).hasMessageContaining("cannot write a java.lang.Object");
    List<Object> cycle = new ArrayList<>();
    cycle.add(cycle);
    assertThatThrownBy(() -> Json.write(cycle)).hasMessageContaining("nested deeper than 512");
  }

  @Test
  void errorsNamePositionAndExpectation() {
    assertError("", 0, "expected a value");
    assertError("{\"a\" 1}", 5, "expected ':' after the key but found '1'");
    assertError("{\"a\":1,}", 7, "expected a string key but found '}'");
    assertError("[1 2]", 3, "expected ',' or ']' in array but found '2'");
    assertError("{\"a\":1 \"b\":2}", 7, "expected ',' or '}' in object");
    assertError("[1,]", 3, "expected a value");
    assertError("tru", 0, "expected a value");
    assertError("01", 1, "expected the end of the input after the value but found '1'");
    assertError("-", 1, "expected a digit but found end of input");
    assertError("1.", 2, "expected a digit after '.'");
    assertError("1e+", 3, "expected a digit in the exponent");
    assertError("\"abc", 0, "unterminated string");
    assertError("\"a\\qb\"", 2, "invalid escape '\\q'");
    assertError("\"\\u12g4\"", 1, "expected 4 hex digits after '\\u'");
    assertError("\"a\nb\"", 2, "raw control character in a string");
    assertError("{\"a\":1,\"a\":2}", 7, "duplicate key 'a'");
    assertError("[1] x", 4, "expected the end of the input");
    assertError("1e400", 0, "number out of the range of a double");
  }

  @Test
  void nestingLimit() {
    String ok = "[".repeat(512) + "]".repeat(512);
    String deep = "[".repeat(513) + "]".repeat(513);

    assertThat(Json.parse(ok)).isInstanceOf(List.class);
    assertError(deep, 512, "nesting deeper than 512 levels");
  }

  private static void assertError(String text, int position, String message) {
    assertThatThrownBy(() -> Json.parse(text))
        .isInstanceOfSatisfying(JsonException.class, e -> assertThat(e.position()).isEqualTo(position))
        .hasMessageContaining(message);
  }
}
