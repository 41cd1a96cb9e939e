package dev.bottlenose.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class CodeNamesTest {
  /** A loaded /Code hierarchy: two packages, an overloaded method, a nested class, a class of the default package. */
  private final Map<ResourcePath, List<ResourcePath>> tree = new HashMap<>();
  private final Function<ResourcePath, List<ResourcePath>> children = p -> tree.getOrDefault(p, List.of());

  CodeNamesTest() {
    for (String method : List.of("/Code/com.acme/Cache/get(Ljava/lang/Object;)Ljava/lang/Object;",
        "/Code/com.acme/Cache/get(Ljava/lang/String;I)Ljava/lang/Object;", "/Code/com.acme/Cache/put(Ljava/util/Map;)V",
        "/Code/com.acme/Cache$Entry/touch([J)V", "/Code/com.acme/Cache/log([Ljava/lang/String;)V",
        "/Code/com.acme.util/Strings/trim(Ljava/lang/String;)Ljava/lang/String;", "/Code/(default)/Main/run()V")) {
      add(ResourcePath.parse(method));
    }
  }

  private void add(ResourcePath p) {
    ResourcePath parent = p.parent();
    List<ResourcePath> siblings = tree.computeIfAbsent(parent, k -> new ArrayList<>());
    if (!siblings.contains(p)) {
      siblings.add(p);
    }
    if (!parent.isRoot()) {
      add(parent);
    }
  }

  private String resolve(String text) {
    return CodeNames.resolve(text, children).toString();
  }

  @Test
  void packagesClassesAndMethodsAsJavaWritesThem() {
    assertThat(resolve("com.acme")).isEqualTo("/Code/com.acme");
    assertThat(resolve("com.acme.Cache")).isEqualTo("/Code/com.acme/Cache");
    assertThat(resolve("com.acme.Cache.Entry")).isEqualTo("/Code/com.acme/Cache$Entry");
    assertThat(resolve("com.acme.Cache$Entry::touch")).isEqualTo("/Code/com.acme/Cache$Entry/touch([J)V");
    assertThat(resolve("com.acme.Cache::put")).isEqualTo("/Code/com.acme/Cache/put(Ljava/util/Map;)V");
    assertThat(resolve("com.acme.Cache#put")).isEqualTo("/Code/com.acme/Cache/put(Ljava/util/Map;)V");
    assertThat(resolve("com.acme.Cache.put")).isEqualTo("/Code/com.acme/Cache/put(Ljava/util/Map;)V");
    assertThat(resolve(" com.acme.util.Strings.trim(String) ")).isEqualTo(
        "/Code/com.acme.util/Strings/trim(Ljava/lang/String;)Ljava/lang/String;");
    assertThat(resolve("Main::run")).isEqualTo("/Code/(default)/Main/run()V");
    assertThat(CodeNames.isJavaName("/Code/com.acme")).isFalse();
    assertThat(CodeNames.isJavaName("</Code/com.acme>")).isFalse();
    assertThat(CodeNames.isJavaName("com.acme.Cache::get")).isTrue();
  }

  @Test
  void parametersPickAnOverloadInAnySpellingOfTheirTypes() {
    assertThat(resolve("com.acme.Cache.get(Object)")).isEqualTo("/Code/com.acme/Cache/get(Ljava/lang/Object;)Ljava/lang/Object;");
    assertThat(resolve("com.acme.Cache::get(java.lang.String, int)"))
        .isEqualTo("/Code/com.acme/Cache/get(Ljava/lang/String;I)Ljava/lang/Object;");
    assertThat(resolve("com.acme.Cache.put(Map<String, List<Integer>>)")).isEqualTo("/Code/com.acme/Cache/put(Ljava/util/Map;)V");
    assertThat(resolve("com.acme.Cache.log(String...)")).isEqualTo("/Code/com.acme/Cache/log([Ljava/lang/String;)V");
    assertThat(resolve("com.acme.Cache.Entry.touch(long[])")).isEqualTo("/Code/com.acme/Cache$Entry/touch([J)V");
  }

  @Test
  void anOverloadedNameIsAnErrorListingTheCandidates() {
    assertThatThrownBy(() -> resolve("com.acme.Cache::get")).hasMessage("'com.acme.Cache::get' names 2 places; write one of:"
        + " com.acme.Cache.get(Object)  (/Code/com.acme/Cache/get(Ljava/lang/Object;)Ljava/lang/Object;);"
        + " com.acme.Cache.get(String, int)  (/Code/com.acme/Cache/get(Ljava/lang/String;I)Ljava/lang/Object;)");
  }

  @Test
  void nothingFoundSaysHowFarTheNameWasFound() {
    assertThatThrownBy(() -> resolve("com.other.Cache::get")).hasMessageContaining("no code matches 'com.other.Cache::get'")
        .hasMessageContaining("no package");
    assertThatThrownBy(() -> resolve("com.acme.Store::get")).hasMessage(
        "no code matches 'com.acme.Store::get': package com.acme has no loaded class Store");
    assertThatThrownBy(() -> resolve("com.acme.Cache::fetch")).hasMessage(
        "no code matches 'com.acme.Cache::fetch': class com.acme.Cache has no method fetch");
    assertThatThrownBy(() -> resolve("com.acme.Cache.get(long)")).hasMessage("no code matches 'com.acme.Cache.get(long)':"
        + " class com.acme.Cache has no get(long); it has com.acme.Cache.get(Object), com.acme.Cache.get(String, int)");
  }

  @Test
  void whatIsNotAJavaNameIsRefusedSayingWhatIs() {
    assertThatThrownBy(() -> resolve("com..acme")).hasMessageContaining("is not a Java name (com.acme.Cache::get,");
    assertThatThrownBy(() -> resolve("com.acme.Cache.get(Object")).hasMessageContaining("a parameter list ends with ')'");
    assertThatThrownBy(() -> resolve("com.acme.Cache::9lives")).hasMessageContaining("'9lives' is not a method name");
  }
}
