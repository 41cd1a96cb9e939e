package dev.bottlenose.consultant.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.ResourcePath;
import org.junit.jupiter.api.Test;

class CodeOnlyTest {

  @Test
  void onlyApplicationPackagesAreProbedWholesale() {
    assertThat(CodeOnly.inApplicationCode(ResourcePath.parse("/Code/com.acme.shop"))).isTrue();
    assertThat(CodeOnly.inApplicationCode(ResourcePath.parse("/Code/javalin.core"))).isTrue();
    assertThat(CodeOnly.inApplicationCode(ResourcePath.parse("/Code/java.lang"))).isFalse();
    assertThat(CodeOnly.inApplicationCode(ResourcePath.parse("/Code/jdk.internal.misc"))).isFalse();
    assertThat(CodeOnly.inApplicationCode(ResourcePath.parse("/Code/com.sun.management"))).isFalse();
    assertThat(CodeOnly.inApplicationCode(ResourcePath.parse("/Code"))).isFalse();
  }
}
