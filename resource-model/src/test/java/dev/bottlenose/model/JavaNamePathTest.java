package dev.bottlenose.model;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class JavaNamePathTest {

  @Property
  void methodPathsRoundTripAndNameTheSameMethod(@ForAll("methods") MethodRef m) {
    ResourcePath p = m.toPath();
    ResourcePath back = ResourcePath.parse(p.toString());

    assertThat(back).isEqualTo(p);
    assertThat(MethodRef.fromPath(back)).isEqualTo(m);
    assertThat(CodePaths.className(back)).isEqualTo(m.className());
  }

  @Property
  void javaNamesNeedNoEscapesExceptTheHiddenClassSlash(@ForAll("methods") MethodRef m) {
    String text = m.toPath().toString();
    String unescaped = text.replace("$$Lambda\\/0x", "$$Lambda/0x");

    assertThat(unescaped).doesNotContain("\\");
    if (m.descriptor() == null) {
      return;
    }
    assertThat(text).endsWith(m.methodName() + m.descriptor());
    assertThat(ResourcePath.parse(text).depth()).isEqualTo(3);
  }

  @Property
  void formSegmentsParseBelowTheMethod(@ForAll("methods") MethodRef m, @ForAll("forms") String form) {
    ResourcePath p = m.toPath().child(form);

    assertThat(ResourcePath.parse(p.toString()).segments()).containsExactlyElementsOf(p.segments());
    assertThat(MethodRef.fromPath(p)).isEqualTo(m);
  }

  @Provide
  Arbitrary<MethodRef> methods() {
    return JavaNames.methods();
  }

  @Provide
  Arbitrary<String> forms() {
    return Arbitraries.of(JavaNames.forms());
  }
}
