package dev.bottlenose.agent.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TypeNamesTest {
  @Test
  void arrayDescriptorsBecomeJavaNames() {
    assertThat(TypeNames.javaName("[B")).isEqualTo("byte[]");
    assertThat(TypeNames.javaName("[[J")).isEqualTo("long[][]");
    assertThat(TypeNames.javaName("[Ljava.lang.String;")).isEqualTo("java.lang.String[]");
    assertThat(TypeNames.javaName("java.lang.String")).isEqualTo("java.lang.String");
  }
}
