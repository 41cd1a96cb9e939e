package dev.bottlenose.agent.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.model.ResourceChange;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingSupplier;

/** The session's own messages (ping, bye, refusals, the agent's changes event) read back as they were written. */
class SessionMessagesTest {
  private static final Map<String, Object> CLASS = Map.of("path", "/Code/com.acme/Sim", "kind", "class",
      "attributes", Map.of("methods", "3"));

  @Test
  void pingPongAndByeSurviveTheWire() throws Exception {
    assertThat(Ping.fromMap(wire(new Ping().toMap()))).isEqualTo(new Ping());
    assertThat(Pong.fromMap(wire(new Pong(123_456_789L).toMap()))).isEqualTo(new Pong(123_456_789L));
    assertThat(Bye.fromMap(wire(new Bye().toMap()))).isEqualTo(new Bye());
    assertThat(Bye.isBye(Map.of("id", 3L, "op", "bye"))).isTrue();
    assertThat(Bye.isBye(Map.of("id", 3L, "op", "ping"))).isFalse();
    assertRefused(() -> Pong.fromMap(Map.of()), "nanoTime", null, "missing nanoTime");
  }

  @Test
  void aRequestsEnvelopeCarriesItsArgumentsBesideItsIdAndOp() throws Exception {
    Request request = new Request(9, Unwatch.OP, new LinkedHashMap<>(new Unwatch(4).toMap()));
    Map<String, Object> frame = wire(request.toMap());
    assertThat(frame).containsEntry("id", 9L).containsEntry("op", "unwatch").containsEntry("sourceId", 4L);
    Request read = Request.fromMap(frame);
    assertThat(read).isEqualTo(request);
    assertThat(Unwatch.fromMap(read.arguments())).isEqualTo(new Unwatch(4));
    assertThat(read.answer(Map.of("x", 1L))).containsEntry("re", 9L).containsEntry("ok", true).containsEntry("x", 1L);
    assertThat(RemoveAll.fromMap(wire(new Request(3, RemoveAll.OP, Map.of()).toMap()))).isEqualTo(new RemoveAll());
    assertRefused(() -> Request.fromMap(Map.of("op", "ping")), "id", null, "request has no integer id");
    assertRefused(() -> Request.fromMap(Map.of("id", "7", "op", "ping")), "id", "7", "request has no integer id");
    assertRefused(() -> Request.fromMap(Map.of("id", 7L)), "op", null, "missing op");
    assertRefused(() -> Request.fromMap(Map.of("id", 7L, "op", 3L)), "op", 3L, "op must be a string, not 3");
  }

  @Test
  void anErrorFrameSurvivesTheWireWithOrWithoutItsRequestId() throws Exception {
    ErrorFrame refused = new ErrorFrame(7L, "NO_SUCH_METHOD", "no method /Code/com.acme/Sim/nope()V");
    Map<String, Object> frame = wire(refused.toMap());
    assertThat(frame).containsEntry("ok", false).containsEntry("error", refused.message());
    assertThat(ErrorFrame.isError(frame)).isTrue();
    assertThat(ErrorFrame.fromMap(frame)).isEqualTo(refused);
    ErrorFrame unnumbered = new ErrorFrame(null, "BAD_REQUEST", "frame is not valid JSON");
    assertThat(wire(unnumbered.toMap())).containsKey("re");
    assertThat(ErrorFrame.fromMap(wire(unnumbered.toMap()))).isEqualTo(unnumbered);
    assertThat(ErrorFrame.isError(Map.of("re", 1L, "ok", true))).isFalse();
    assertThat(ErrorFrame.fromMap(Map.of("re", 1L, "ok", false))).isEqualTo(new ErrorFrame(1L, "UNKNOWN", ""));
    assertRefused(() -> new ErrorFrame(1L, "", "x"), "code", "", "an error frame needs a code");
  }

  @Test
  void aChangesEventSurvivesTheWire() throws Exception {
    Changes changes = new Changes(List.of(new Changes.Change(ResourceChange.Type.ADDED, CLASS),
        new Changes.Change(ResourceChange.Type.REMOVED, Map.of("path", "/Threads/pool-1/pool-1-thread-2"))));
    Map<String, Object> frame = wire(changes.toMap());
    assertThat(frame).containsEntry("event", "changes");
    assertThat(Changes.isChanges(frame)).isTrue();
    assertThat(Changes.fromMap(frame)).isEqualTo(changes);
    assertThat(changes.changeMaps().get(0)).containsEntry("type", "added").containsEntry("resource", CLASS);
  }

  @Test
  void aMalformedChangeIsRefusedNamingItsPlace() {
    assertRefused(() -> Changes.fromMap(Map.of("event", "changes")), "changes", null, "a changes event needs changes");
    assertRefused(() -> Changes.fromMap(Map.of("changes", List.of("x"))), "changes[0]", "x",
        "changes[0] must be an object");
    assertRefused(() -> Changes.fromMap(Map.of("changes", List.of(Map.of("type", "added", "resource", CLASS),
        Map.of("type", "moved", "resource", CLASS)))), "changes[1].type", "moved",
        "changes[1].type must be added, updated or removed, not moved");
    assertRefused(() -> Changes.fromMap(Map.of("changes", List.of(Map.of("type", "added", "resource", "x")))),
        "changes[0].resource", "x", "changes[0].resource must be an object");
  }

  static void assertRefused(ThrowingSupplier<?> read, String field, Object value, String inMessage) {
    assertThatThrownBy(read::get).isInstanceOfSatisfying(WireException.class, e -> {
      assertThat(e.field()).isEqualTo(field);
      assertThat(e.value()).isEqualTo(value);
      assertThat(e.getMessage()).contains(inMessage);
      if (value != null) {
        assertThat(e.getMessage()).contains(String.valueOf(value));
      }
    });
  }

  static Map<String, Object> wire(Map<String, ?> message) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Frames.write(bytes, message);
    return Frames.read(new ByteArrayInputStream(bytes.toByteArray()));
  }

  static Map<String, Object> with(Map<String, Object> m, String key, Object value) {
    Map<String, Object> copy = new LinkedHashMap<>(m);
    copy.put(key, value);
    return copy;
  }
}
