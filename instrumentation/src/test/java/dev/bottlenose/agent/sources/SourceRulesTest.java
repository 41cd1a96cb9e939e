package dev.bottlenose.agent.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SourceRulesTest {
  private static WatchedSource parse(Object source) {
    return SourceRules.parse(source, 1, "daemon#1");
  }

  private static Map<String, Object> source(String... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  @Test
  void readsEveryFilter() {
    WatchedSource s = parse(source("event", "cpu_sample", "code", "caller:/Code/com.acme/Sim/step(I)V",
        "thread", "/Threads/pool-1/pool-1-thread-2", "form", "compiled"));
    assertThat(s.event).isEqualTo(SourceEvent.CPU_SAMPLE);
    assertThat(s.code.mode().word()).isEqualTo("caller");
    assertThat(s.frameType).isEqualTo("JIT compiled");
    assertThat(s.needsStack()).isTrue();
    assertThat(s.spec.toMap()).containsEntry("thread", "/Threads/pool-1/pool-1-thread-2");
    assertThat(parse(source("event", "gc_pause")).needsStack()).isFalse();
    assertThat(parse(source("event", "jit_compile", "code", "/Code/com.acme")).needsStack()).isFalse();
  }

  @Test
  void allocationSamplesTakeAnAllocatedType() {
    WatchedSource s = parse(source("event", "alloc_sample", "type", "com.acme.Outer$Point"));
    assertThat(s.allocatedType).isEqualTo("com.acme.Outer$Point");
    assertThat(s.needsStack()).isFalse();
    assertThatThrownBy(() -> parse(source("event", "park", "type", "int[]")))
        .hasMessage("type: only alloc_sample sources take an allocated type, park does not");
    assertThatThrownBy(() -> parse(source("event", "alloc_sample", "type", "/Memory/int[]")))
        .hasMessageStartingWith("type '/Memory/int[]' must be an allocated type as /Memory names it");
  }

  @Test
  void aCpuSampleSourceMayAskForASamplingPeriod() {
    Map<String, Object> slow = source("event", "cpu_sample", "code", "/Code/com.acme");
    slow.put("period", 50L);
    assertThat(parse(slow).periodNanos(20_000_000L)).isEqualTo(50_000_000L);
    assertThat(parse(slow).spec.toMap()).containsEntry("period", 50L);
    assertThat(parse(source("event", "cpu_sample")).periodNanos(20_000_000L)).isEqualTo(20_000_000L);

    Map<String, Object> park = source("event", "park");
    park.put("period", 50L);
    assertThatThrownBy(() -> parse(park)).hasMessage("period: only cpu_sample and alloc_sample sources take a sampling period, park does not");
    for (Object bad : new Object[] {"50", 2.5}) {
      slow.put("period", bad);
      assertThatThrownBy(() -> parse(slow)).hasMessage("period must be a whole number of milliseconds, not " + bad);
    }
    for (long bad : new long[] {0, 1001}) {
      slow.put("period", bad);
      assertThatThrownBy(() -> parse(slow)).hasMessage("period " + bad + " ms is out of range (1 to 1000 ms)");
    }
  }

  @Test
  void everyEventHasAWordAndAJfrType() {
    assertThat(SourceEvent.words()).startsWith("cpu_sample, gc_pause, jit_compile")
        .endsWith("alloc_sample, deopt, io_sample, lock_sample, class_define");
    for (SourceEvent e : SourceEvent.values()) {
      assertThat(SourceEvent.byWord(e.word())).isEqualTo(e);
      assertThat(e.jfrName).startsWith(e == SourceEvent.LOCK_SAMPLE ? "bottlenose." : "jdk.");
    }
  }

  @Test
  void refusalsNameTheField() {
    assertThatThrownBy(() -> parse("cpu_sample")).hasMessageStartingWith("source must be an object");
    assertThatThrownBy(() -> parse(source("code", "/Code/a"))).hasMessageStartingWith("source needs an event");
    assertThatThrownBy(() -> parse(source("event", "gc_storm"))).hasMessageContaining("unknown event 'gc_storm'");
    assertThatThrownBy(() -> parse(Map.of("event", 3L))).hasMessage("event must be a string, not 3");
    assertThatThrownBy(() -> parse(source("event", "park", "mode", "x"))).hasMessageStartingWith("unknown field 'mode'");
    assertThatThrownBy(() -> parse(source("event", "park", "code", "/Code/a/B/m/c2/x")))
        .hasMessageContaining("must name a /Code package, class or method");
    assertThatThrownBy(() -> parse(source("event", "park", "code", "/Code")))
        .hasMessageContaining("must name a /Code package, class or method");
    assertThatThrownBy(() -> parse(source("event", "park", "code", "nearby:/Code/a")))
        .hasMessageContaining("unknown constraint mode 'nearby'");
    assertThatThrownBy(() -> parse(source("event", "safepoint", "code", "/Code/a"))).hasMessageStartingWith("code: safepoint");
    assertThatThrownBy(() -> parse(source("event", "deopt", "code", "caller:/Code/a/B/m")))
        .hasMessageContaining("not caller:");
    assertThatThrownBy(() -> parse(source("event", "jit_compile", "thread", "/Threads/main")))
        .hasMessageStartingWith("thread: jit_compile");
    assertThatThrownBy(() -> parse(source("event", "park", "thread", "/Code/main")))
        .hasMessageContaining("must be /Threads/<pool>");
    assertThatThrownBy(() -> parse(source("event", "sleep", "form", "interpreted")))
        .hasMessage("form: only cpu_sample sources take a form, sleep does not");
    assertThatThrownBy(() -> parse(source("event", "cpu_sample", "form", "c2")))
        .hasMessageContaining("unknown form 'c2'");
  }

  @Test
  void aResourceFilterNamesTheObjectTheEventIsAbout() {
    assertThat(parse(source("event", "monitor_enter", "resource", "/SyncObjects/monitors/com.acme.Cache")).resource).isNotNull();
    assertThat(parse(source("event", "park", "resource", "/SyncObjects/locks")).resource).isNotNull();
    assertThat(parse(source("event", "file_read", "resource", "/IO/file/\\/tmp\\/data.bin")).spec.toMap())
        .containsEntry("resource", "/IO/file/\\/tmp\\/data.bin");
    assertThat(parse(source("event", "socket_write", "resource", "/IO/socket/127.0.0.1:8080")).resource).isNotNull();
    assertThat(ResourceFilter.groupOf(SourceEvent.MONITOR_WAIT)).isEqualTo("monitors");
    assertThat(ResourceFilter.groupOf(SourceEvent.PARK)).isEqualTo("locks");
    assertThat(ResourceFilter.groupOf(SourceEvent.CPU_SAMPLE)).isNull();
    assertThat(parse(source("event", "lock_sample", "resource", "/SyncObjects/locks/com.acme.Stock")).resource)
        .as("a lock sample names the class of the monitor or lock").isNotNull();
  }

  @Test
  void resourceRefusalsSayWhatTheEventCanBeFilteredOn() {
    assertThatThrownBy(() -> parse(source("event", "cpu_sample", "resource", "/SyncObjects/monitors")))
        .hasMessageStartingWith("resource: cpu_sample events are about no /SyncObjects or /IO resource");
    assertThatThrownBy(() -> parse(source("event", "park", "resource", "/IO/file")))
        .hasMessageContaining("must be /SyncObjects/monitors[/<class>] or /SyncObjects/locks[/<class>]");
    assertThatThrownBy(() -> parse(source("event", "monitor_enter", "resource", "/SyncObjects/monitors/a.B/a.B@1f")))
        .hasMessageContaining("JFR names the class, not the instance");
    assertThatThrownBy(() -> parse(source("event", "file_write", "resource", "/IO/pipe")))
        .hasMessage("resource '/IO/pipe': unknown group 'pipe' (known: file, socket)");
    assertThatThrownBy(() -> parse(source("event", "socket_read", "resource", "IO/socket")))
        .hasMessageStartingWith("resource 'IO/socket' is not a path");
  }

  @Test
  void samplePeriodsAreReadFromJfrSettings() {
    assertThat(SamplePeriod.parse("20 ms")).isEqualTo(20_000_000L);
    assertThat(SamplePeriod.parse("1 s")).isEqualTo(1_000_000_000L);
    assertThat(SamplePeriod.parse("500 us")).isEqualTo(500_000L);
    assertThat(SamplePeriod.parse("everyChunk")).isEqualTo(-1);
    assertThat(SamplePeriod.parse(null)).isEqualTo(-1);
    assertThat(SamplePeriod.parse("x ms")).isEqualTo(-1);
    assertThat(SamplePeriod.parse(" 20000000  ns ")).isEqualTo(20_000_000L);
    assertThat(SamplePeriod.parse("20 ms extra")).isEqualTo(-1);
    assertThat(SamplePeriod.parse("20")).isEqualTo(-1);
  }

  @Test
  void theCollectorsPausesAreGarbageCollectionsNotOtherSafepoints() {
    for (String gc : new String[] {"G1CollectForAllocation", "G1CollectFull", "G1TryInitiateConcMark", "G1Concurrent", "G1PauseRemark",
        "ParallelGCFailedAllocation", "ParallelGCSystemGC", "GenCollectForAllocation", "GenCollectFull", "CollectForMetadataAllocation",
        "ZMarkStart", "ZRelocateStart", "XMarkStart", "ShenandoahInitMark", "ShenandoahFinalMarkStartEvac"}) {
      assertThat(SourceEvent.isCollection(gc)).as(gc).isTrue();
    }
    for (String other : new String[] {"RevokeBias", "Deoptimize", "HandshakeAllThreads", "ThreadDump", "FindDeadlocks", "ICBufferFull",
        "Cleanup", "RedefineClasses", "PrintThreads", "HeapDumper", "", null}) {
      assertThat(SourceEvent.isCollection(other)).as(String.valueOf(other)).isFalse();
    }
  }
}
