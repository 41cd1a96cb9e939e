package dev.bottlenose.agent.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ThreadPoolsTest {
  @Test
  void executorAndForkJoinThreadsGoToTheirPool() {
    assertThat(ThreadPools.poolOf("pool-1-thread-3", "main")).isEqualTo("pool-1");
    assertThat(ThreadPools.poolOf("ForkJoinPool.commonPool-worker-1", "main")).isEqualTo("ForkJoinPool.commonPool");
    assertThat(ThreadPools.poolOf("ForkJoinPool-2-worker-11", "main")).isEqualTo("ForkJoinPool-2");
  }

  @Test
  void aTrailingNumberIsTheIndexInThePool() {
    assertThat(ThreadPools.poolOf("http-nio-8080-exec-7", "main")).isEqualTo("http-nio-8080-exec");
    assertThat(ThreadPools.poolOf("Thread-0", "main")).isEqualTo("Thread");
    assertThat(ThreadPools.poolOf("worker_12", "main")).isEqualTo("worker");
    assertThat(ThreadPools.poolOf("bottlenose-channel-2", "main")).isEqualTo("bottlenose");
    assertThat(ThreadPools.poolOf("bottlenose-jfr", "main")).isEqualTo("bottlenose");
  }

  @Test
  void namesWithoutANumberBelongToTheirGroup() {
    assertThat(ThreadPools.poolOf("main", "main")).isEqualTo("main");
    assertThat(ThreadPools.poolOf("Reference Handler", "system")).isEqualTo("system");
    assertThat(ThreadPools.poolOf("ticker", null)).isEqualTo("other");
    assertThat(ThreadPools.poolOf("42", "main")).isEqualTo("main");
  }
}
