package dev.bottlenose.agent.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.instrumentation.ProbeKind;
import dev.bottlenose.model.MethodRef;
import dev.bottlenose.model.ResourcePath;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingSupplier;

/** The probe requests and answers the daemon writes are those the agent reads, and the other way round. */
class ProbeMessagesTest {
  private static final MethodRef TICK = new MethodRef("com.acme.Sim", "tick", "()V");
  private static final MethodRef STEP = new MethodRef("com.acme.Sim$Inner", "step", null);

  @Test
  void everyProbeMessageSurvivesTheWire() throws Exception {
    ProbeSpec callSite = new ProbeSpec(TICK, ProbeKind.CALL_SITE, STEP);
    assertThat(ProbeSpec.fromMap(wire(callSite.toMap()))).isEqualTo(callSite);
    InsertAll all = new InsertAll(List.of(new ProbeSpec(TICK, ProbeKind.WALL_INCLUSIVE, null),
        new ProbeSpec(STEP, ProbeKind.ALLOCATION, null)));
    assertThat(InsertAll.fromMap(wire(all.toMap()))).isEqualTo(all);
    Inserted inserted = new Inserted(7, TICK, 1234);
    assertThat(Inserted.fromMap(wire(inserted.toMap()))).isEqualTo(inserted);
    Failure itemFailure = new Failure(null, "NO_SUCH_METHOD", "no method /Code/com.acme/Sim/nope()V");
    assertThat(Failure.ofItem(wire(itemFailure.toItem()))).isEqualTo(itemFailure);
    assertThat(Failure.ofItem(wire(inserted.toMap()))).isNull();
    Remove remove = new Remove(7);
    assertThat(Remove.fromMap(wire(remove.toMap()))).isEqualTo(remove);
    RemoveMany many = new RemoveMany(List.of(7L, 8L));
    assertThat(RemoveMany.fromMap(wire(many.toMap()))).isEqualTo(many);
    RemoveReply reply = new RemoveReply(List.of(new Removed(7, "com.acme.Sim", 500, true)),
        List.of(new Failure(8L, "NO_SUCH_PROBE", "no probe 8")));
    assertThat(RemoveReply.fromMap(wire(reply.toMap()))).isEqualTo(reply);
  }

  @Test
  void theOtherTypedRequestsSurviveTheWire() throws Exception {
    Resources code = new Resources(ResourcePath.parse("/Code/com.acme"), 2);
    assertThat(Resources.fromMap(wire(code.toMap()))).isEqualTo(code);
    Resources roots = new Resources(null, -1);
    assertThat(Resources.fromMap(wire(roots.toMap()))).isEqualTo(roots);
    assertThat(Resources.fromMap(Map.of())).isEqualTo(new Resources(null, 1));
    assertThat(ClassBytes.fromMap(wire(new ClassBytes("com.acme.Sim$Inner").toMap())))
        .isEqualTo(new ClassBytes("com.acme.Sim$Inner"));
    assertThat(Unwatch.fromMap(wire(new Unwatch(3).toMap()))).isEqualTo(new Unwatch(3));
    assertRefused(() -> Resources.fromMap(Map.of("path", "Code")), "path", "Code", "path is not a resource path");
    assertRefused(() -> Resources.fromMap(Map.of("depth", "two")), "depth", "two", "depth must be an integer, not two");
    assertRefused(() -> ClassBytes.fromMap(Map.of("className", " ")), "className", " ", "classBytes needs a className");
    assertRefused(() -> ClassBytes.fromMap(Map.of()), "className", null, "classBytes needs a className");
    assertRefused(() -> Unwatch.fromMap(Map.of()), "sourceId", null, "unwatch needs a sourceId");
    assertRefused(() -> Unwatch.fromMap(Map.of("sourceId", 1.5)), "sourceId", 1.5, "sourceId must be an integer, not 1.5");
  }

  @Test
  void eachMalformedFieldIsRefusedNamingTheFieldAndTheValue() {
    Map<String, Object> good = new ProbeSpec(TICK, ProbeKind.CALL_COUNT, null).toMap();
    assertRefused(() -> ProbeSpec.fromMap(with(good, "method", null)), "method", null, "missing argument method");
    assertRefused(() -> ProbeSpec.fromMap(with(good, "method", 3L)), "method", 3L, "method must be a string, not 3");
    assertRefused(() -> ProbeSpec.fromMap(with(good, "method", "Code")), "method", "Code", "method is not a resource path");
    assertRefused(() -> ProbeSpec.fromMap(with(good, "method", "/Threads/main")), "method", "/Threads/main",
        "method /Threads/main is not a method path");
    assertRefused(() -> ProbeSpec.fromMap(with(good, "kind", "bogus")), "kind", "bogus", "unknown probe kind 'bogus' in kind");
    assertRefused(() -> ProbeSpec.fromMap(with(good, "callee", "/Code/com.acme/Sim/tick()V")), "callee",
        "/Code/com.acme/Sim/tick()V", "callee is required for call_site probes and only for them (kind call_count");
    assertRefused(() -> InsertAll.fromMap(Map.of()), "probes", null, "insertAll needs probes");
    assertRefused(() -> InsertAll.fromMap(Map.of("probes", "all")), "probes", "all", "probes must be a list, not all");
    assertRefused(() -> InsertAll.fromMap(Map.of("probes", List.of(good, "x"))), "probes[1]", "x",
        "probes[1] must be an object");
    assertRefused(() -> Remove.fromMap(Map.of()), "probeId", null, "remove needs a probeId");
    assertRefused(() -> Remove.fromMap(Map.of("probeId", "7")), "probeId", "7", "probeId must be an integer, not 7");
    assertRefused(() -> RemoveMany.fromMap(Map.of("probeIds", List.of(1L, "x"))), "probeIds[1]", "x",
        "probeIds[1] must be an integer probe id, not x");
    assertRefused(() -> Inserted.fromMap(Map.of("method", "/Code/com.acme/Sim/tick()V")), "probeId", null,
        "missing probeId");
    assertRefused(() -> Removed.fromMap(Map.of("probeId", 7L)), "className", null, "missing className");
    assertRefused(() -> Failure.fromMap(Map.of("code", "")), "code", "", "a failure needs a code");
  }

  @Test
  void theLenientReadsTakeWhatIsMissingAsEmpty() {
    Map<String, Object> m = Map.of("n", 3L, "s", "x", "list", List.of(Map.of("a", 1L)), "map", Map.of("b", 2L));
    assertThat(Fields.numberOr(m, "n", -1)).isEqualTo(3);
    assertThat(Fields.numberOr(m, "s", -1)).isEqualTo(-1);
    assertThat(Fields.textOr(m, "n")).isEqualTo("3");
    assertThat(Fields.textOr(m, "none")).isEmpty();
    assertThat(Fields.mapsOr(m, "list")).containsExactly(Map.of("a", 1L));
    assertThat(Fields.mapsOr(m, "map")).isEmpty();
    assertThat(Fields.mapOr(m, "map")).containsEntry("b", 2L);
    assertThat(Fields.mapOr(m, "list")).isEmpty();
  }

  private static void assertRefused(ThrowingSupplier<?> read, String field, Object value, String inMessage) {
    assertThatThrownBy(read::get).isInstanceOfSatisfying(WireException.class, e -> {
      assertThat(e.field()).isEqualTo(field);
      assertThat(e.value()).isEqualTo(value);
      assertThat(e.getMessage()).contains(inMessage);
      if (value != null) {
        assertThat(e.getMessage()).contains(String.valueOf(value));
      }
    });
  }

  private static Map<String, Object> with(Map<String, Object> m, String key, Object value) {
    Map<String, Object> copy = new LinkedHashMap<>(m);
    copy.put(key, value);
    return copy;
  }

  private static Map<String, Object> wire(Map<String, Object> message) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Frames.write(bytes, message);
    return Frames.read(new ByteArrayInputStream(bytes.toByteArray()));
  }
}
