package dev.bottlenose.agent.wire;

import static dev.bottlenose.agent.wire.SessionMessagesTest.assertRefused;
import static dev.bottlenose.agent.wire.SessionMessagesTest.wire;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.instrumentation.ProbeCost;
import dev.bottlenose.instrumentation.ProbeKind;
import dev.bottlenose.model.MethodRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** read, ledger, status and jfr, and their answers, read back as they were written; and their refusals. */
class AnswerMessagesTest {
  private static final MethodRef TICK = new MethodRef("com.acme.Sim", "tick", "()V");
  private static final MethodRef STEP = new MethodRef("com.acme.Sim$Inner", "step", "(I)V");
  private static final SourceEntry PARKS = new SourceEntry(4, new SourceSpec("park", "inclusive:/Code/com.acme", null,
      null, null, "/SyncObjects/locks", null), "daemon-1#1", 1_700_000_000_000L);

  @Test
  void theRequestsWithoutArgumentsSurviveTheWire() throws Exception {
    assertThat(Read.fromMap(wire(new Read().toMap()))).isEqualTo(new Read());
    assertThat(Ledger.fromMap(wire(new Ledger().toMap()))).isEqualTo(new Ledger());
    assertThat(Status.fromMap(wire(new Status().toMap()))).isEqualTo(new Status());
    assertThat(List.of(Read.OP, Ledger.OP, Status.OP, Jfr.OP)).containsExactly("read", "ledger", "status", "jfr");
  }

  @Test
  void aReadAnswerSurvivesTheWire() throws Exception {
    ReadReply full = new ReadReply(123L, List.of(new Reading(7, ProbeKind.CALL_COUNT, 10, 0, 0, null, null),
        new Reading(8, ProbeKind.ALLOCATION, 3, 0, 96, Map.of("int[]", 2L, "com.acme.Point", 1L),
            Map.of("int[]", 64L, "com.acme.Point", 32L))), new ProbeCost(13, 26, 1_000), 5_000, 90_000,
        Map.of("gcCount", 2L, "jitNanos", 7L), 20_000_000L);
    assertThat(ReadReply.fromMap(wire(full.toMap()))).isEqualTo(full);
    ReadReply bare = new ReadReply(5L, List.of(), null, -1, -1, Map.of(), -1);
    Map<String, Object> frame = wire(bare.toMap());
    assertThat(frame).doesNotContainKeys("agentCpuNanos", "processCpuNanos", "samplePeriodNanos");
    assertThat(ReadReply.fromMap(frame)).isEqualTo(new ReadReply(5L, List.of(), new ProbeCost(0, 0, 0), -1, -1, Map.of(), -1));
  }

  @Test
  void aLedgerAnswerAndAStatusSurviveTheWire() throws Exception {
    LedgerReply ledger = new LedgerReply(List.of(new ProbeEntry(7, TICK, ProbeKind.CALL_SITE, STEP, "daemon-1#1", 10L),
        new ProbeEntry(8, STEP, ProbeKind.WALL_INCLUSIVE, null, "daemon-2#1", 11L)), List.of(PARKS));
    Map<String, Object> frame = wire(ledger.toMap());
    assertThat(LedgerReply.fromMap(frame)).isEqualTo(ledger);
    assertThat(Fields.mapsOr(frame, "entries").get(1)).containsEntry("callee", null);
    assertThat(LedgerReply.fromMap(Map.of())).isEqualTo(new LedgerReply(List.of(), List.of()));

    AgentStatus status = new AgentStatus(0, 2, 5, "daemon-1#1", List.of(PARKS), "running", 4096);
    assertThat(AgentStatus.fromMap(wire(status.toMap()))).isEqualTo(status);
    AgentStatus noJfr = new AgentStatus(1, 1, 0, "daemon-1#1", null, null, -1);
    assertThat(wire(noJfr.toMap())).doesNotContainKeys("sources", "jfr", "bytesAllocatedByAgentThreads");
    assertThat(AgentStatus.fromMap(wire(noJfr.toMap()))).isEqualTo(noJfr);
  }

  @Test
  void aDigestAndItsAnswerSurviveTheWire() throws Exception {
    Map<String, List<List<?>>> kinds = new LinkedHashMap<>();
    kinds.put(Jfr.MONITORS, List.of(List.of("com.acme.Cache", 250_000L, "com.acme.Cache", "get", "()V")));
    kinds.put(Jfr.GC, List.of(List.of("G1 Young", 1_000_000L), List.of("G1 Young", 2_000_000L)));
    Jfr digest = new Jfr(kinds);
    Map<String, Object> frame = new LinkedHashMap<>(digest.toMap());
    frame.put("id", 9L);
    frame.put("op", Jfr.OP);
    Jfr read = Jfr.fromMap(wire(frame));
    assertThat(read).isEqualTo(digest);
    assertThat(read.tuples(Jfr.GC)).hasSize(2);
    assertThat(read.tuples(Jfr.PINNED)).isEmpty();
    assertThat(wire(digest.toMap())).as("no thresholds asked: none sent").doesNotContainKey(Jfr.THRESHOLDS);
    Jfr withThresholds = new Jfr(kinds, Map.of("jdk.ThreadPark", 1_600_000L));
    assertThat(Jfr.fromMap(wire(withThresholds.toMap()))).isEqualTo(withThresholds);
    assertThat(JfrApplied.fromMap(wire(new JfrApplied(3, true).toMap()))).isEqualTo(new JfrApplied(3, true));
    assertThat(JfrApplied.fromMap(wire(new JfrApplied(0, false).toMap()))).isEqualTo(new JfrApplied(0, false));
  }

  @Test
  void theResourcesAndClassBytesAnswersSurviveTheWire() throws Exception {
    ResourcesReply resources = new ResourcesReply(List.of(Map.of("path", "/Code/com.acme", "kind", "package",
        "attributes", Map.of()), Map.of("path", "/Code/com.acme/Sim", "kind", "class", "attributes", Map.of("a", "1"))));
    assertThat(ResourcesReply.fromMap(wire(resources.toMap()))).isEqualTo(resources);
    ClassDigest digest = new ClassDigest(1234, "ab".repeat(32));
    assertThat(ClassDigest.fromMap(wire(digest.toMap()))).isEqualTo(digest);
    assertRefused(() -> ResourcesReply.fromMap(Map.of("resources", List.of(Map.of("kind", "class")))),
        "resources[0].path", null, "resources[0]: missing path");
    assertRefused(() -> ClassDigest.fromMap(Map.of("length", 3L, "sha256", "abc")), "sha256", "abc",
        "sha256 must be 64 hex digits, not abc");
    assertRefused(() -> ClassDigest.fromMap(Map.of("sha256", "ab".repeat(32))), "length", null, "missing length");
  }

  @Test
  void eachMalformedFieldIsRefusedNamingTheFieldAndTheValue() {
    assertRefused(() -> ReadReply.fromMap(Map.of("readings", List.of())), "nanoTime", null, "missing nanoTime");
    assertRefused(() -> ReadReply.fromMap(Map.of("nanoTime", 1L, "readings", "none")), "readings", "none",
        "readings must be a list, not none");
    assertRefused(() -> ReadReply.fromMap(Map.of("nanoTime", 1L, "readings", List.of(3L))), "readings[0]", 3L,
        "readings[0] must be an object");
    assertRefused(() -> ReadReply.fromMap(Map.of("nanoTime", 1L, "readings", List.of(Map.of("probeId", 1L,
        "kind", "sometimes")))), "kind", "sometimes", "unknown probe kind 'sometimes'");
    assertRefused(() -> ReadReply.fromMap(Map.of("nanoTime", 1L, "vm", Map.of("gcCount", "two"))), "vm.gcCount", "two",
        "vm.gcCount must be an integer, not two");
    assertRefused(() -> ReadReply.fromMap(Map.of("nanoTime", 1L, "cost", 5L)), "cost", 5L,
        "cost must be an object of numbers, not 5");
    assertRefused(() -> LedgerReply.fromMap(Map.of("entries", List.of(Map.of("probeId", 1L, "method", "/Code/a/B/m()V",
        "kind", "call_count"), Map.of("probeId", 2L, "method", "/Threads/main", "kind", "call_count")))),
        "entries[1].method", "/Threads/main", "entries[1]: method /Threads/main is not a method path");
    assertRefused(() -> LedgerReply.fromMap(Map.of("sources", List.of(Map.of("sourceId", 4L)))), "sources[0].source",
        null, "sources[0]: a source entry needs its source");
    assertRefused(() -> AgentStatus.fromMap(Map.of("jfr", 3L)), "jfr", 3L, "jfr must be a string, not 3");
    assertRefused(() -> Jfr.fromMap(Map.of(Jfr.GC, "G1")), "gc", "G1", "gc must be a list of tuples, not G1");
    assertRefused(() -> Jfr.fromMap(Map.of(Jfr.LOCKS, List.of("x"))), "locks[0]", "x", "locks[0] must be a tuple");
    assertRefused(() -> new Jfr(Map.of("weather", List.of())), "kinds", "weather", "unknown digest kind 'weather'");
    assertRefused(() -> Jfr.fromMap(Map.of(Jfr.THRESHOLDS, List.of())), "thresholds", List.of(),
        "thresholds must be an object of event names and nanoseconds");
    assertRefused(() -> Jfr.fromMap(Map.of(Jfr.THRESHOLDS, Map.of("jdk.ThreadPark", -1L))), "thresholds.jdk.ThreadPark",
        -1L, "thresholds.jdk.ThreadPark must be a whole number of nanoseconds, not -1");
  }
}
