package dev.bottlenose.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.json.Json;
import dev.bottlenose.model.json.ModelJson;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class PathRoundTripTest {
  private static final String AWKWARD = "/\\,<>();[]\"'$. \t\n\u00a0:LIV";

  @Property
  void anySegmentsRoundTripAsText(@ForAll("paths") ResourcePath p) {
    ResourcePath back = ResourcePath.parse(p.toString());

    assertThat(back).isEqualTo(p);
    assertThat(back.toString()).isEqualTo(p.toString());
  }

  @Property
  void canonicalTextHasNoBareCommaAndBalancedAngles(@ForAll("paths") ResourcePath p) {
    String text = p.toString();
    int depth = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        i++;
      } else {
        assertThat(c).isNotEqualTo(',');
        depth += c == '<' ? 1 : c == '>' ? -1 : 0;
        assertThat(depth).isNotNegative();
      }
    }
    assertThat(depth).isZero();
  }

  @Property
  void anyPathRoundTripsInsideFocusConstraintAndPair(@ForAll("paths") ResourcePath p, @ForAll("paths") ResourcePath q, @ForAll ConstraintMode mode) {
    Focus focus = p.hierarchy() == q.hierarchy() ? Focus.of(p) : Focus.of(p, q);
    MetricFocus pair = new MetricFocus("m_1", focus);
    Constraint c = new Constraint(p, mode);

    assertThat(Focus.parse(focus.toString())).isEqualTo(focus);
    assertThat(Focus.parse(spacedOut(focus))).isEqualTo(focus);
    assertThat(MetricFocus.parse(pair.toString())).isEqualTo(pair);
    assertThat(Constraint.parse(c.toString())).isEqualTo(c);
  }

  @Property
  void anyPathRoundTripsAsJson(@ForAll("paths") ResourcePath p, @ForAll("paths") ResourcePath q, @ForAll ConstraintMode mode) {
    Focus focus = p.hierarchy() == q.hierarchy() ? Focus.of(q) : Focus.of(p, q);
    MetricFocus pair = new MetricFocus("calls", focus);
    Constraint c = new Constraint(p, mode);

    assertThat(ModelJson.readMetricFocus(Json.parse(Json.write(ModelJson.toJson(pair))))).isEqualTo(pair);
    assertThat(ModelJson.readConstraint(Json.parse(Json.write(ModelJson.toJson(c))))).isEqualTo(c);
    assertThat(ModelJson.readPath(Json.parse(Json.write(ModelJson.toJson(p))))).isEqualTo(p);
  }

  private static String spacedOut(Focus focus) {
    StringBuilder sb = new StringBuilder(" <\t");
    for (ResourcePath p : focus.constrained().values()) {
      sb.append(sb.length() == 3 ? "" : " ,\n ").append(p);
    }
    return sb.append("  > ").toString();
  }

  @Provide
  Arbitrary<ResourcePath> paths() {
    Arbitrary<List<String>> segments = segment().list().ofMaxSize(5);
    return Combinators.combine(Arbitraries.of(Hierarchy.class), segments).as(PathRoundTripTest::path);
  }

  static Arbitrary<String> segment() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, Arbitraries.strings().withChars(AWKWARD).ofMaxLength(8)),
        net.jqwik.api.Tuple.of(3, Arbitraries.strings().all().ofMaxLength(12)),
        net.jqwik.api.Tuple.of(2, Arbitraries.of("", " ", "\"\"", ">", "(", "(I)V", "m(I)V", "m(I)Vx", "(default)", "file", "a(b(I)V", "m(La,b;)V", "m(L\\;)V")),
        net.jqwik.api.Tuple.of(2, JavaNames.methodSegment()));
  }

  private static ResourcePath path(Hierarchy h, List<String> segments) {
    List<String> s = new ArrayList<>(segments);
    if (h == Hierarchy.IO && !s.isEmpty() && s.get(0).equals("file") && s.size() > 2) {
      s = s.subList(0, 2);
    }
    return ResourcePath.of(h, s);
  }
}
