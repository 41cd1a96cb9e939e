package dev.bottlenose.agent.wire;

import static dev.bottlenose.agent.wire.SessionMessagesTest.assertRefused;
import static dev.bottlenose.agent.wire.SessionMessagesTest.wire;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The watch request, its source and its answer read back as they were written, and their refusals. */
class SourceMessagesTest {
  private static final SourceSpec EVERY_FIELD = new SourceSpec("cpu_sample", "caller:/Code/com.acme/Sim/step(I)V",
      "/Threads/pool-1", "compiled", null, null, 50L);

  @Test
  void aWatchSurvivesTheWire() throws Exception {
    Watch watch = new Watch(EVERY_FIELD);
    assertThat(Watch.fromMap(wire(watch.toMap()))).isEqualTo(watch);
    Watch bare = new Watch(SourceSpec.of("gc_pause"));
    assertThat(wire(bare.toMap())).isEqualTo(Map.of("source", Map.of("event", "gc_pause")));
    assertThat(Watch.fromMap(wire(bare.toMap()))).isEqualTo(bare);
    SourceSpec io = new SourceSpec("file_read", null, null, null, null, "/IO/file/\\/tmp\\/x", null);
    assertThat(SourceSpec.fromMap(wire(io.toMap()))).isEqualTo(io);
    SourceSpec alloc = new SourceSpec("alloc_sample", null, null, null, "int[]", null, null);
    assertThat(SourceSpec.fromMap(wire(alloc.toMap()))).isEqualTo(alloc);
    assertThat(Watched.fromMap(wire(new Watched(4).toMap()))).isEqualTo(new Watched(4));
    assertThat(SourceSpec.of("cpu_sample").withPeriod(20L).periodMillis()).isEqualTo(20L);
  }

  @Test
  void aFieldSetToNullIsAbsent() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("event", "park");
    m.put("code", null);
    assertThat(SourceSpec.fromMap(m)).isEqualTo(SourceSpec.of("park"));
    assertThat(SourceSpec.fromMap(Map.of("event", "cpu_sample", "period", 5)).periodMillis()).isEqualTo(5L);
  }

  @Test
  void eachMalformedFieldIsRefusedNamingTheFieldAndTheValue() {
    assertRefused(() -> Watch.fromMap(Map.of()), "source", null, "watch needs a source");
    assertRefused(() -> Watch.fromMap(Map.of("source", "cpu_sample")), "source", "cpu_sample",
        "source must be an object");
    assertRefused(() -> SourceSpec.fromMap(Map.of("code", "/Code/a")), "event", null, "source needs an event");
    assertRefused(() -> SourceSpec.fromMap(Map.of("event", 3L)), "event", 3L, "event must be a string, not 3");
    assertRefused(() -> SourceSpec.fromMap(Map.of("event", "park", "mode", "x")), "mode", "x",
        "unknown field 'mode' in source (mode: x; known: event, code, thread, form, type, resource, period)");
    assertRefused(() -> SourceSpec.fromMap(Map.of("event", "park", "thread", 7L)), "thread", 7L,
        "thread must be a string, not 7");
    assertRefused(() -> SourceSpec.fromMap(Map.of("event", "cpu_sample", "period", "50")), "period", "50",
        "period must be a whole number of milliseconds, not 50");
    assertRefused(() -> SourceSpec.fromMap(Map.of("event", "cpu_sample", "period", 2.5)), "period", 2.5,
        "period must be a whole number of milliseconds, not 2.5");
    assertRefused(() -> SourceSpec.fromMap(Map.of("event", "cpu_sample", "period", 1001L)), "period", 1001L,
        "period 1001 ms is out of range (1 to 1000 ms)");
    assertRefused(() -> Watched.fromMap(Map.of()), "sourceId", null, "missing sourceId");
  }
}
