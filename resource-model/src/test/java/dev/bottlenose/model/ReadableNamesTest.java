package dev.bottlenose.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReadableNamesTest {
  private static String of(String path) {
    return ReadableNames.of(ResourcePath.parse(path));
  }

  @Test
  void codeReadsAsInJava() {
    assertThat(of("/Code/com.acme/Cache/get(Ljava/lang/Object;)Ljava/lang/Object;")).isEqualTo("com.acme.Cache.get(Object)");
    assertThat(of("/Code/com.acme/Cache/put(I[[BJLjava/util/Map;)V")).isEqualTo("com.acme.Cache.put(int, byte[][], long, Map)");
    assertThat(of("/Code/com.acme/Cache/get")).isEqualTo("com.acme.Cache.get(...)");
    assertThat(of("/Code/com.acme/Cache")).isEqualTo("class com.acme.Cache");
    assertThat(of("/Code/com.acme")).isEqualTo("package com.acme");
    assertThat(of("/Code/(default)/Main/main([Ljava/lang/String;)V")).isEqualTo("Main.main(String[])");
    assertThat(of("/Code")).isEqualTo("all code");
  }

  @Test
  void hiddenClassesLoseTheirAddress() {
    assertThat(ReadableNames.className("diag.churn.EventCounter$$Lambda$7+0x00007f71cc007860.44745002")).isEqualTo("diag.churn.EventCounter$$Lambda");
    assertThat(ReadableNames.className("Workload$$Lambda$2/112810359")).isEqualTo("Workload$$Lambda");
    assertThat(ReadableNames.className("diag.Price$$Lambda$2/0x00007f6f28003000")).isEqualTo("diag.Price$$Lambda");
    assertThat(ReadableNames.className("com.acme.Outer$Inner")).isEqualTo("com.acme.Outer$Inner");
  }

  @Test
  void otherHierarchiesSayWhatTheResourceIs() {
    assertThat(of("/Threads/request/request-0")).isEqualTo("thread request-0");
    assertThat(of("/Threads/request")).isEqualTo("threads of request");
    assertThat(of("/SyncObjects/monitors/diag.lockslow.AuditLog")).isEqualTo("monitors of diag.lockslow.AuditLog");
    assertThat(of("/SyncObjects/locks/java.util.concurrent.locks.ReentrantLock$NonfairSync"))
        .isEqualTo("locks of java.util.concurrent.locks.ReentrantLock$NonfairSync");
    assertThat(of("/Memory/byte[]")).isEqualTo("objects of byte[]");
    assertThat(of("/IO/socket/127.0.0.1:8080")).isEqualTo("socket 127.0.0.1:8080");
    assertThat(of("/Process/4242")).isEqualTo("process 4242");
  }
}
