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

  @Test
  void bottlenosesOwnPackagesAreToolCodeAndNotApplicationCode() {
    for (String own : new String[] {"/Code/dev.bottlenose.agent", "/Code/dev.bottlenose.agent.shaded.asm",
        "/Code/dev.bottlenose.instrumentation/Weaver", "/Code/dev.bottlenose.probe", "/Code/dev.bottlenose.model.json"}) {
      assertThat(CodeOnly.isToolCode(ResourcePath.parse(own))).as(own).isTrue();
      assertThat(CodeOnly.inApplicationCode(ResourcePath.parse(own))).as(own).isFalse();
    }
    ResourcePath workloads = ResourcePath.parse("/Code/dev.bottlenose.tests.workloads/HotMethodWorkload/burn()J");
    assertThat(CodeOnly.isToolCode(workloads)).isFalse();
    assertThat(CodeOnly.inApplicationCode(workloads)).isTrue();
    assertThat(CodeOnly.isToolCode(ResourcePath.parse("/Code/dev.bottlenose.agentx"))).isFalse();
    assertThat(CodeOnly.isToolCode(ResourcePath.parse("/Threads/dev.bottlenose.agent"))).isFalse();
    assertThat(CodeOnly.isToolCode(ResourcePath.parse("/Code"))).isFalse();
  }
}
