package dev.bottlenose.model.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class JsonRoundTripTest {

  @Property
  void writtenValuesReadBackEqual(@ForAll("values") Object value) {
    String text = Json.write(value);

    assertThat(Json.parse(text)).isEqualTo(value);
    assertThat(Json.parse(" \n" + text + "\t ")).isEqualTo(value);
  }

  @Provide
  Arbitrary<Object> values() {
    return value(4);
  }

  private static Arbitrary<Object> value(int depth) {
    Arbitrary<Object> scalar = Arbitraries.oneOf(
        Arbitraries.longs().map(l -> (Object) l),
        Arbitraries.doubles().map(d -> (Object) d),
        Arbitraries.of(1e-300, -0.0, 1e300, Double.MIN_VALUE, Double.MAX_VALUE).map(d -> (Object) d),
        Arbitraries.strings().all().ofMaxLength(20).map(s -> (Object) s),
        Arbitraries.of(true, false).map(b -> (Object) b),
        Arbitraries.just(null));
    if (depth == 0) {
      return scalar;
    }
    Arbitrary<Object> list = Arbitraries.lazy(() -> value(depth - 1)).list().ofMaxSize(4).map(l -> (Object) l);
    Arbitrary<Object> map = Arbitraries.maps(Arbitraries.strings().all().ofMaxLength(6), Arbitraries.lazy(() -> value(depth - 1)))
        .ofMaxSize(4)
        .map(m -> (Object) new LinkedHashMap<>(m));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, scalar), net.jqwik.api.Tuple.of(1, list), net.jqwik.api.Tuple.of(1, map));
  }

  @Property
  void mapOrderIsKept(@ForAll List<@net.jqwik.api.constraints.StringLength(max = 5) String> keys) {
    Map<String, Object> m = new LinkedHashMap<>();
    keys.forEach(k -> m.put(k, (long) k.length()));

    Map<?, ?> back = (Map<?, ?>) Json.parse(Json.write(m));

    assertThat(List.copyOf(back.keySet())).isEqualTo(List.copyOf(m.keySet()));
  }
}
